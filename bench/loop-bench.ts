/**
 * The event loop under the heaviest allowed requests (issue 20, docs/robustness.md#heavy-requests).
 * The app runs in this process on its own port and DATA_DIR (so its loop is the one measured); each
 * request is sent over HTTP and its answer read to the end while `monitorEventLoopDelay` samples
 * the loop (10 ms resolution) and `/api/health` is asked every 20 ms. Reported per request: the
 * median over the runs of the loop's p99 and max lag, of the lag the work itself held the loop for
 * (per 5 ms tick, bounded by the CPU time the process spent: a timer also waits while other
 * processes hold the cores), of health's p99 latency, and of the time to the last byte. Same-run
 * baseline: the idle app, health asked the same way.
 *
 * The requests, each the largest its bound allows:
 * - ERP export, xlsx: 41 meters × 3,652 days by day = 149,733 rows × 10 columns (1,500,000 cells);
 * - statistics range: 41 meters × 2,439 days by day = 99,999 values (100,000);
 * - device import: an xlsx of 10,000 rows (each run new identifiers, so every row is created);
 * - alarm backtest: 518,400 raw points (30 days of 5 s data) of one meter.
 *
 *   npx tsx bench/loop-bench.ts [--runs 3] [--port 19400]
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DAY, PlantCalendar } from '@kilowatch/contract';
import ExcelJS from 'exceljs';
import { fmt, log, machine, median, numArg, quantile, TIME_ZONE } from './harness.ts';
import { createMeterModel, createMeters, startBenchApp, writeKwhCounters } from './kwh-meters.ts';

const RUNS = numArg('runs', 3);
const PORT = numArg('port', 19400);
const METERS = 41;
const EXPORT_DAYS = 3652;
const RANGE_DAYS = 2439;
const IMPORT_ROWS = 10_000;
const BACKTEST_POINTS = 518_400;
const STEP = 5000;

interface Run {
  p99: number;
  max: number;
  /** p99 and max of the lag bounded by the CPU the process spent meanwhile (see `measure`). */
  heldP99: number;
  heldMax: number;
  healthP99: number;
  ms: number;
}

const running = await startBenchApp({ port: PORT });
const { app, api } = running;

/** Runs `work` while sampling the loop and health; answers the run's numbers. */
async function measure(work: () => Promise<void>): Promise<Run> {
  const lag = monitorEventLoopDelay({ resolution: 10 });
  const health: number[] = [];
  let busy = true;
  const probe = (async () => {
    while (busy) {
      const at = performance.now();
      const res = await fetch(`${api.base}/api/health`);
      await res.arrayBuffer();
      health.push(performance.now() - at);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  // Per 5 ms tick, the delay no longer than the CPU time this process spent meanwhile: what the
  // work held the loop for, apart from waiting for a core other processes hold.
  const held: number[] = [];
  let last = performance.now();
  let cpu = process.cpuUsage();
  const tick = setInterval(() => {
    const now = performance.now();
    const used = process.cpuUsage(cpu);
    held.push(Math.max(0, Math.min(now - last - 5, (used.user + used.system) / 1000)));
    last = now;
    cpu = process.cpuUsage();
  }, 5);
  lag.enable();
  const at = performance.now();
  await work();
  const ms = performance.now() - at;
  await new Promise((resolve) => setTimeout(resolve, 30));
  lag.disable();
  clearInterval(tick);
  busy = false;
  await probe;
  return {
    p99: lag.percentile(99) / 1e6,
    max: lag.max / 1e6,
    heldP99: quantile(held, 0.99),
    heldMax: Math.max(0, ...held),
    healthP99: quantile(health, 0.99),
    ms,
  };
}

async function series(label: string, work: (run: number) => Promise<void>): Promise<string> {
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await measure(() => work(i)));
  const m = (pick: (r: Run) => number) => median(runs.map(pick));
  const cells = [m((r) => r.p99), m((r) => r.max), m((r) => r.heldP99), m((r) => r.heldMax)].map((x) =>
    fmt(x, 1),
  );
  const line = `| ${label} | ${cells.join(' | ')} | ${fmt(
    m((r) => r.healthP99),
    1,
  )} | ${fmt(
    m((r) => r.ms),
    0,
  )} |`;
  log(line, `(runs: ${runs.map((r) => fmt(r.p99, 1)).join(', ')} ms p99)`);
  return line;
}

const post = async (path: string, body: unknown, expect = 200): Promise<number> => {
  const res = await fetch(`${api.base}${path}`, {
    method: 'POST',
    headers: api.headers,
    body: JSON.stringify(body),
  });
  let bytes = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
  if (res.status !== expect) throw new Error(`${path}: ${res.status}`);
  return bytes;
};

try {
  log(machine());
  const modelId = await createMeterModel(api);
  const region = await api.call<{ id: number }>('POST', '/api/regions', { name: 'Loop bench' });
  const ids = await createMeters(api, { modelId, count: METERS, regionId: region.id });
  const calendar = new PlantCalendar(TIME_ZONE);
  const end = calendar.startOfDay(Date.now());
  // The counters' last 30 days every 5 s for the backtest's meter, hourly for the others.
  await writeKwhCounters(app, ids.slice(0, 1), {
    from: end - BACKTEST_POINTS * STEP,
    to: end,
    interval: STEP,
    kw: (_, ts) => 50 + 45 * Math.sin(ts / 3_600_000),
  });
  await writeKwhCounters(app, ids.slice(1), {
    from: end - 30 * DAY,
    to: end,
    interval: 3_600_000,
    kw: () => 20,
  });
  const categories = await api.call<{ list: { id: number }[] }>(
    'GET',
    '/api/thing/categories?name=Bench%20meter',
  );
  const categoryId = categories.list[0]?.id;
  // The model createMeterModel made.
  const model = { name: 'M' };
  const importFile = async (run: number): Promise<Buffer> => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('things');
    sheet.addRow(['identifier', 'name', 'model']);
    for (let i = 0; i < IMPORT_ROWS; i++) sheet.addRow([`I${run}-${i}`, `Imported ${run}-${i}`, model.name]);
    return Buffer.from(await workbook.xlsx.writeBuffer());
  };
  const files = await Promise.all(Array.from({ length: RUNS }, (_, run) => importFile(run)));

  const idle = await series('idle (baseline)', () => new Promise((resolve) => setTimeout(resolve, 3000)));
  const erp = await series(`ERP export xlsx, ${METERS * EXPORT_DAYS + 1} rows × 10`, async () => {
    await post('/api/statistics/report/erp/xlsx', {
      resourceType: 'region',
      resourceIds: [region.id],
      metricIdentifier: 'EP',
      period: 'month',
      startTime: end - EXPORT_DAYS * DAY,
      endTime: end,
      groupByTime: 'day',
    });
  });
  const range = await series(`statistics range, ${METERS} × ${RANGE_DAYS} values`, async () => {
    await post('/api/statistics/range', {
      resourceType: 'thing',
      resourceIds: ids,
      metricIdentifier: 'EP',
      period: 'month',
      startTime: end - RANGE_DAYS * DAY,
      endTime: end,
      groupByTime: 'day',
    });
  });
  const imported = await series(`device import xlsx, ${IMPORT_ROWS} rows`, async (run) => {
    const form = new FormData();
    form.append('file', new Blob([files[run] as Buffer]), 'things.xlsx');
    const res = await fetch(`${api.base}/api/thing/things/import`, {
      method: 'POST',
      headers: { 'x-authorization': api.headers['x-authorization'] as string },
      body: form,
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`import: ${res.status} ${text.slice(0, 300)}`);
  });
  const backtest = await series(`alarm backtest, ${BACKTEST_POINTS} points`, async () => {
    await post('/api/alarm/rules/backtest', {
      rule: {
        name: 'bench',
        ability: 'EP',
        categoryId,
        templateId: null,
        condition: { kind: 'threshold', op: '>', value: 1000 },
        onDelay: 15,
        offDelay: 0,
        deadband: 0,
        severity: 'major',
        message: '{thing}',
      },
      thingId: ids[0],
      start: end - BACKTEST_POINTS * STEP,
      end,
    });
  });
  log('');
  log('| request | loop lag p99 (ms) | max | held p99 (ms) | held max | health p99 (ms) | time (ms) |');
  log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const line of [idle, erp, range, imported, backtest]) log(line);
} finally {
  await running.stop();
}
