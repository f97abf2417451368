/**
 * Exports (issue 12 target: an xlsx of 200 things × 31 days ≤ 2 s, memory bounded). The app runs in
 * this process on its own port and DATA_DIR; meters are created through the API (a region of 200
 * inside a plant of 2,000), an hourly kWh counter written for each over 31 days, then each export
 * is downloaded over HTTP (the body counted and dropped, as a browser writing to disk would) while
 * the process's RSS and V8 heap are sampled every 5 ms. Reported per export: the median time to
 * the last byte, and the median peak growth of RSS and heap over the run's start.
 *
 * Same-run baselines: the same ERP rows as CSV (streamed text: the floor of any file), and the
 * same rows built as an in-memory exceljs workbook (`writeBuffer`, how every export was made
 * before). 200 and 2,000 things show whether memory grows with the rows.
 *
 *   npx tsx --expose-gc bench/export-bench.ts [--sizes 200,2000] [--days 31] [--interval 3600] [--runs 5] [--port 19330]
 */
import { PlantCalendar, type StatisticsExport } from '@kilowatch/contract';
import ExcelJS from 'exceljs';
import { fmt, log, machine, median, numArg, SECOND, strArg, TIME_ZONE } from './harness.ts';
import { createMeterModel, createMeters, startBenchApp, writeKwhCounters } from './kwh-meters.ts';

const SIZES = strArg('sizes', '200,2000')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
const DAYS = numArg('days', 31);
const INTERVAL = numArg('interval', 3600) * SECOND;
const RUNS = numArg('runs', 5);
const PORT = numArg('port', 19330);
const MB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc;

interface Sample {
  ms: number;
  /** CPU time of the process (server and client: one process), which load on a shared machine does not inflate. */
  cpuMs: number;
  rssMb: number;
  heapMb: number;
  bytes: number;
}

/** Runs `fn` once while sampling memory: time, peak RSS and heap growth over the start. */
async function measure(fn: () => Promise<number>): Promise<Sample> {
  gc?.();
  await new Promise((r) => setTimeout(r, 20));
  const start = process.memoryUsage();
  let rss = start.rss;
  let heap = start.heapUsed;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    if (m.rss > rss) rss = m.rss;
    if (m.heapUsed > heap) heap = m.heapUsed;
  }, 5);
  const t = performance.now();
  const cpu = process.cpuUsage();
  const bytes = await fn();
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  clearInterval(timer);
  const end = process.memoryUsage();
  rss = Math.max(rss, end.rss);
  heap = Math.max(heap, end.heapUsed);
  return { ms, cpuMs, rssMb: (rss - start.rss) / MB, heapMb: (heap - start.heapUsed) / MB, bytes };
}

async function series(label: string, fn: () => Promise<number>): Promise<Sample> {
  await measure(fn); // warm-up
  const runs: Sample[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await measure(fn));
  const out: Sample = {
    ms: median(runs.map((r) => r.ms)),
    cpuMs: median(runs.map((r) => r.cpuMs)),
    rssMb: median(runs.map((r) => r.rssMb)),
    heapMb: median(runs.map((r) => r.heapMb)),
    bytes: runs[0]?.bytes ?? 0,
  };
  log(
    `${label}: median ${fmt(out.ms, 0)} ms (CPU ${fmt(out.cpuMs, 0)} ms); peak growth RSS ${fmt(out.rssMb, 1)} MB, heap ${fmt(out.heapMb, 1)} MB; ${fmt(out.bytes / 1024)} KB (${RUNS} runs)`,
  );
  return out;
}

const running = await startBenchApp({ port: PORT });
const { app, api } = running;
try {
  log(machine());
  log(`gc between runs: ${gc ? 'yes' : 'no (run with --expose-gc for steadier memory numbers)'}`);
  const modelId = await createMeterModel(api);
  const plant = await api.call<{ id: number }>('POST', '/api/regions', { name: 'Bench plant' });

  const calendar = new PlantCalendar(TIME_ZONE);
  const end = calendar.startOfDay(Date.now());
  const start = calendar.dayStart(calendar.dayOf(end) - DAYS);
  const download = async (path: string, body: StatisticsExport): Promise<number> => {
    const res = await fetch(`${api.base}${path}`, {
      method: 'POST',
      headers: { ...api.headers, 'accept-language': 'zh' },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    let bytes = 0;
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
    return bytes;
  };
  const query = (): StatisticsExport => ({
    resourceType: 'region',
    resourceIds: [plant.id],
    metricIdentifier: 'EP',
    period: 'month',
    startTime: start,
    endTime: end,
    groupByTime: 'day',
  });

  /** The old way: the same ERP rows in an exceljs Workbook, written to one buffer. */
  const inMemory = async (): Promise<number> => {
    const { statistics } = app.services;
    const things = await statistics.thingsOf(query());
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('ERP', { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.addRow([
      'ERP编码',
      '设备编号',
      '设备名称',
      '期间',
      '用量',
      '单位',
      '单价',
      '金额',
      '币种',
      '计价依据',
    ]);
    for (let i = 0; i < things.length; i += 500) {
      const result = await statistics.range({
        ...query(),
        resourceType: 'thing',
        resourceIds: things.slice(i, i + 500).map((t) => t.id),
      });
      for (const s of result.series) {
        result.keys.forEach((key, k) => {
          const v = s.values[k] ?? null;
          const row = sheet.addRow([
            '',
            s.identifier,
            s.name,
            calendar.format(key, 'YYYY-MM-DD'),
            v,
            result.unit,
            0,
            v === null ? null : 0,
            'CNY',
            '统一单价',
          ]);
          row.eachCell((cell) => {
            if (typeof cell.value === 'number') cell.numFmt = '#,##0.00';
          });
        });
      }
    }
    return (await workbook.xlsx.writeBuffer()).byteLength;
  };

  const ids: number[] = [];
  const results = new Map<number, Record<string, Sample>>();
  // Each size adds a hall of meters to the plant, then every export is measured on the plant.
  for (const size of SIZES) {
    const hall = await api.call<{ id: number }>('POST', '/api/regions', {
      name: `Hall ${size}`,
      parentId: plant.id,
    });
    const added = await createMeters(api, {
      modelId,
      count: size - ids.length,
      first: ids.length,
      regionId: hall.id,
    });
    ids.push(...added);
    const loaded = performance.now();
    // An hourly counter through the month, from the hour before it to its end.
    const written = await writeKwhCounters(app, added, {
      from: start - INTERVAL,
      to: end + INTERVAL,
      interval: INTERVAL,
      kw: (i, ts) => 5 + 4 * Math.sin(((ts - start) / 86_400_000) * 2 * Math.PI) + (i % 5),
      initial: (i) => 1000 + i,
    });
    log(
      `${size} things: ${fmt(written)} more points loaded in ${fmt((performance.now() - loaded) / 1000, 1)} s`,
    );

    log(`\n${size} things × ${DAYS} days by day (ERP: ${fmt(size * DAYS)} rows)`);
    const r: Record<string, Sample> = {};
    r.range = await series('baseline: the data alone, POST /api/statistics/range of the region', async () => {
      const res = await fetch(`${api.base}/api/statistics/range`, {
        method: 'POST',
        headers: api.headers,
        body: JSON.stringify(query()),
      });
      return (await res.arrayBuffer()).byteLength;
    });
    if (size <= 500) {
      r.standard = await series(
        `standard xlsx (POST /api/statistics/output), ${size} rows × ${DAYS} columns`,
        () =>
          download('/api/statistics/output', { ...query(), resourceType: 'thing', resourceIds: [...ids] }),
      );
    }
    r.erp = await series('ERP xlsx, streamed (POST /api/statistics/report/erp/xlsx)', () =>
      download('/api/statistics/report/erp/xlsx', query()),
    );
    r.csv = await series('baseline: ERP CSV, streamed', () =>
      download('/api/statistics/report/erp/xlsx', { ...query(), format: 'csv' }),
    );
    r.memory = await series('baseline: the same ERP rows as an in-memory workbook (writeBuffer)', () =>
      inMemory(),
    );
    results.set(size, r);
  }
  const [small, large] = SIZES;
  const a = results.get(small as number);
  const b = large === undefined ? undefined : results.get(large);
  log(`\ntarget: ERP xlsx of ${small} things × ${DAYS} days ≤ 2,000 ms: ${fmt(a?.erp?.ms ?? Number.NaN)} ms`);
  if (a && b) {
    for (const key of ['erp', 'csv', 'memory'] as const) {
      log(
        `${key}: ${small} → ${large} things (${fmt(((large as number) / (small as number)) * 1)}× the rows): time ×${fmt((b[key]?.ms ?? 0) / (a[key]?.ms ?? 1), 1)}, peak RSS growth ${fmt(a[key]?.rssMb ?? 0, 1)} → ${fmt(b[key]?.rssMb ?? 0, 1)} MB, heap ${fmt(a[key]?.heapMb ?? 0, 1)} → ${fmt(b[key]?.heapMb ?? 0, 1)} MB`,
      );
    }
  }
} finally {
  await running.stop();
}
