/**
 * End-to-end ingest benchmark: a real server (child process, SIMULATOR=off, temp DATA_DIR) fed
 * through the InfluxDB line-protocol write (gzip and identity) and through MQTT, with a query loop
 * meanwhile; beside it, in the same run, DuckDB's own appender writing the same points into a bare
 * table (no protocol, no parsing, no rollups). Sustained rate = median of per-window rates of
 * acknowledged points after a warm-up.
 *
 *   npx tsx bench/ingest-bench.ts [--things 20] [--days 15] [--seconds 60] [--window 5] [--warmup 10]
 *     [--modes line-gzip,line,mqtt] [--senders 8] [--lines 5000] [--mqtt-batch 500] [--mqtt-inflight 4]
 *     [--query-every 200] [--port 18710] [--mqtt-port 18881] [--prof] [--skip-baseline] [--wing victoria]
 *   npm run bench:ingest -w bench
 *
 * `--wing victoria`: each mode runs twice in turn, on the DuckDB wing and then with the server on the
 * VictoriaMetrics wing (TELEMETRY_URL) of a victoria-metrics single node started here for that run
 * (Debian's binary, a temporary folder; its bytes are measured once it stopped). The server CPU
 * column is Kilowatch's alone (VictoriaMetrics' own cores are not in it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { BIGINT, DOUBLE, DuckDBDataChunk, DuckDBInstance, INTEGER } from '@duckdb/node-api';
import { startVictoria } from '../server/src/telemetry/conformance/wings.ts';
import { DEFAULT_RETENTION, openTelemetryStore } from '../server/src/telemetry/index.ts';
import { mqttPayload, publishMqtt } from './devices.ts';
import {
  Api,
  cpuSeconds,
  createPlant,
  DAY,
  duckdbBlocks,
  fileSize,
  flag,
  fmt,
  loadAverage,
  log,
  METRICS,
  MINUTE,
  machine,
  numArg,
  type Plant,
  removeDir,
  type Server,
  sample,
  sleep,
  startServer,
  strArg,
  TIME_ZONE,
  tempDir,
  windowRates,
} from './harness.ts';
import { type LoopLag, type RunResult, report, summarize, summaryTable } from './ingest-report.ts';

const THINGS = flag('series')
  ? Math.max(1, Math.round(numArg('series', 200) / METRICS.length))
  : numArg('things', 20);
const SERIES = THINGS * METRICS.length;
const DAYS = numArg('days', 15);
const SECONDS = numArg('seconds', 60);
const WINDOW = numArg('window', 5) * 1000;
const WARMUP = numArg('warmup', 10) * 1000;
const INTERVAL = numArg('interval', 10) * 1000;
const SENDERS = Math.min(numArg('senders', 8), THINGS);
const LINES = numArg('lines', 5000);
const MQTT_BATCH = numArg('mqtt-batch', 500);
const MQTT_INFLIGHT = numArg('mqtt-inflight', 4);
const QUERY_EVERY = numArg('query-every', 200);
const PORT = numArg('port', 18710);
const MQTT_PORT = numArg('mqtt-port', 18881);
const MODES = strArg('modes', 'line-gzip,line,mqtt').split(',');
const PROF = flag('prof');
/**
 * After each DuckDB run, the store opened on the run's folder and its hourly maintenance run once
 * (the closed windows compacted, a checkpoint): the bytes a running server's data settles at.
 */
const AT_REST = flag('at-rest');
const VICTORIA = flag('wing');
if (VICTORIA && process.argv[process.argv.indexOf('--wing') + 1] !== 'victoria')
  throw new Error('--wing takes victoria (the DuckDB runs always happen)');
const NM = METRICS.length;

const end = Math.floor(Date.now() / INTERVAL) * INTERVAL - INTERVAL;
const steps = Math.floor((DAYS * DAY) / INTERVAL);
const start = end - steps * INTERVAL;
const total = steps * SERIES;

/** All values, per thing: steps × 10 (ability order of METRICS). */
function generateValues(): Float64Array[] {
  const counter = new Float64Array(THINGS);
  const row = new Float64Array(NM);
  return Array.from({ length: THINGS }, (_, t) => {
    const values = new Float64Array(steps * NM);
    for (let i = 0; i < steps; i++) {
      sample(t, i, start + i * INTERVAL, INTERVAL, counter, row);
      values.set(row, i * NM);
    }
    return values;
  });
}

interface Ack {
  at: number;
  points: number;
}

// ---------------------------------------------------------------- baseline: the bare appender

async function baseline(values: Float64Array[]): Promise<RunResult> {
  const dir = tempDir('kw-ingest-baseline-');
  const path = join(dir, 'baseline.duckdb');
  const instance = await DuckDBInstance.create(path, { threads: '2', memory_limit: '1GB' });
  const conn = await instance.connect();
  await conn.run('CREATE TABLE raw (series_id INTEGER, ts BIGINT, value DOUBLE)');
  const perCommit = Math.max(1, Math.ceil(100_000 / SERIES));
  const acks: Ack[] = [];
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  let written = 0;
  let cycle = 0;
  // Cycles over the dataset (shifted by its length) until --seconds have passed, like the server runs.
  outer: for (;;) {
    const shift = cycle * steps * INTERVAL;
    for (let i = 0; i < steps; i += perCommit) {
      if (performance.now() - t0 > SECONDS * 1000) break outer;
      const i1 = Math.min(steps, i + perCommit);
      await conn.run('BEGIN TRANSACTION');
      const app = await conn.createAppender('raw');
      const n = (i1 - i) * SERIES;
      for (let o = 0; o < n; o += 2048) {
        const m = Math.min(2048, n - o);
        const sid = new Array<number>(m);
        const ts = new Array<bigint>(m);
        const val = new Array<number>(m);
        for (let j = 0; j < m; j++) {
          const k = o + j;
          const step = i + Math.floor(k / SERIES);
          const s = k % SERIES;
          const t = Math.floor(s / NM);
          sid[j] = s + 1;
          ts[j] = BigInt(start + shift + step * INTERVAL);
          val[j] = (values[t] as Float64Array)[step * NM + (s % NM)] as number;
        }
        const chunk = DuckDBDataChunk.create([INTEGER, BIGINT, DOUBLE], m);
        chunk.setColumns([sid, ts, val]);
        app.appendDataChunk(chunk);
      }
      app.closeSync();
      await conn.run('COMMIT');
      written += n;
      acks.push({ at: performance.now(), points: n });
    }
    cycle++;
  }
  const stop = performance.now();
  const cpu = process.cpuUsage(cpu0);
  await conn.run('CHECKPOINT');
  conn.closeSync();
  instance.closeSync();
  const bytes = fileSize(path) + fileSize(`${path}.wal`);
  removeDir(dir);
  const rates = windowRates(acks, t0, WINDOW, WARMUP, stop);
  return {
    label: 'baseline: DuckDB appender, bare table',
    rates,
    seconds: (stop - t0) / 1000,
    points: written,
    errors: 0,
    realtime: [],
    data: [],
    serverCores: Number.NaN,
    clientCores: (cpu.user + cpu.system) / 1e6 / ((stop - t0) / 1000),
    bytesPerPoint: bytes / written,
  };
}

// ---------------------------------------------------------------- payloads

const num = (v: number) => String(v);

/** Line-protocol bodies per thing, `LINES` lines each (all 10 fields per line, ms precision). */
function lineBodies(values: Float64Array[]): Buffer[][] {
  return values.map((v, t) => {
    const bodies: Buffer[] = [];
    for (let i0 = 0; i0 < steps; i0 += LINES) {
      const parts: string[] = [];
      for (let i = i0; i < Math.min(steps, i0 + LINES); i++) {
        let line = `meter,host=gw${String(t % 4).padStart(2, '0')},name=m${t + 1} `;
        for (let a = 0; a < NM; a++) line += `${a ? ',' : ''}${METRICS[a]}=${num(v[i * NM + a] as number)}`;
        parts.push(`${line} ${start + i * INTERVAL}`);
      }
      bodies.push(Buffer.from(`${parts.join('\n')}\n`));
    }
    return bodies;
  });
}

/** MQTT payloads per thing: JSON arrays of `MQTT_BATCH` messages {ts, values}. */
function mqttPayloads(values: Float64Array[]): Buffer[][] {
  return values.map((v) => {
    const payloads: Buffer[] = [];
    for (let i0 = 0; i0 < steps; i0 += MQTT_BATCH)
      payloads.push(mqttPayload(v, i0, Math.min(steps, i0 + MQTT_BATCH), start, INTERVAL));
    return payloads;
  });
}

const pointsOf = (lines: number) => lines * NM;

// ---------------------------------------------------------------- a server run

/** Query loop during ingest: realtime of one thing, then the last 5 minutes of P of 10 things. */
function queryLoop(api: Api, plant: Plant, until: () => boolean) {
  const realtime: number[] = [];
  const data: number[] = [];
  let errors = 0;
  let seq = 0;
  const thing = plant.things[0] as { id: number };
  const done = (async () => {
    while (!until()) {
      await sleep(QUERY_EVERY);
      try {
        let t = performance.now();
        const items = await api.call<{ operation: string; ts: number | null }[]>(
          'GET',
          `/api/query/realtime?resourceType=thing&resourceId=${thing.id}`,
        );
        realtime.push(performance.now() - t);
        const latest = items.find((i) => i.operation === 'P')?.ts;
        if (latest == null) continue;
        t = performance.now();
        const answer = await api.call<{ result: unknown[] }>('POST', `/api/query/data?seq=${++seq}`, {
          resourceType: 'region',
          resourceId: plant.tenRegion,
          metricIdentifier: 'P',
          combine: 'none',
          startTime: latest - 5 * MINUTE,
          endTime: latest + 1,
        });
        data.push(performance.now() - t);
        if (answer.result.length === 0) errors++;
      } catch (error) {
        errors++;
        if (errors < 5) console.error(`  query failed: ${(error as Error).message}`);
      }
    }
  })();
  return { realtime, data, done, errors: () => errors };
}

async function runServer(
  label: string,
  mode: 'line-gzip' | 'line' | 'mqtt',
  payloads: Buffer[][],
  pointsPerPayload: (t: number, k: number) => number,
  victoria = false,
): Promise<RunResult> {
  const dataDir = tempDir('kw-ingest-');
  const vm = victoria ? await startVictoria() : undefined;
  let vmBytes: Promise<number> | undefined;
  const stopVm = () => {
    vmBytes ??= vm?.stop() ?? Promise.resolve(0);
    return vmBytes;
  };
  const profDir = PROF ? tempDir('kw-ingest-prof-') : undefined;
  const lagFile = join(dataDir, 'loop-lag.json');
  const server: Server = await startServer({
    dataDir,
    port: PORT,
    mqttPort: MQTT_PORT,
    nodeArgs: [
      ...(profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : []),
      // tsx first: the preload is TypeScript (the harness adds tsx again for the server, a no-op).
      '--import',
      'tsx',
      '--import',
      join(import.meta.dirname, 'loop-lag.ts'),
    ],
    env: { LOOP_LAG_FILE: lagFile, ...(vm ? { TELEMETRY_URL: vm.url } : {}) },
  });
  try {
    const api = new Api(server.base);
    await api.login();
    const plant = await createPlant(api, THINGS);
    const acks: Ack[] = [];
    let errors = 0;
    let stopped = false;
    const next = new Array<number>(THINGS).fill(0);
    const busy = new Set<number>();
    const chunks = payloads[0]?.length ?? 0;
    const t0 = performance.now();
    const stopAt = t0 + SECONDS * 1000;
    let stopTime = stopAt;
    const cpuServer0 = cpuSeconds(server.pid);
    process.kill(server.pid, 'SIGUSR2');
    const cpuClient0 = process.cpuUsage();
    const queries = queryLoop(api, plant, () => stopped);
    const isOver = () => {
      if (performance.now() >= stopAt) {
        if (!stopped) stopTime = performance.now();
        stopped = true;
      }
      return stopped;
    };

    if (mode === 'mqtt') {
      const sent = await publishMqtt({
        port: server.mqttPort,
        things: plant.things,
        inflight: MQTT_INFLIGHT,
        isOver,
        acks,
        next: (t) => {
          const k = next[t] as number;
          if (k >= chunks) return undefined;
          next[t] = k + 1;
          return { body: payloads[t]?.[k] as Buffer, points: pointsPerPayload(t, k) };
        },
      });
      errors += sent.errors;
    } else {
      const gz = mode === 'line-gzip';
      const headers: Record<string, string>[] = plant.things.map((th) => ({
        authorization: `Token ${th.token}`,
        'content-type': 'text/plain; charset=utf-8',
        ...(gz ? { 'content-encoding': 'gzip' } : {}),
      }));
      const sender = async () => {
        while (!isOver()) {
          // The thing furthest behind that has no request in flight (each thing's data stays in order).
          let t = -1;
          for (let c = 0; c < THINGS; c++) {
            if (busy.has(c) || (next[c] as number) >= chunks) continue;
            if (t < 0 || (next[c] as number) < (next[t] as number)) t = c;
          }
          if (t < 0) return;
          const k = next[t] as number;
          next[t] = k + 1;
          busy.add(t);
          try {
            const res = await fetch(`${server.base}/api/v2/write?precision=ms&org=bench&bucket=bench`, {
              method: 'POST',
              headers: headers[t] as Record<string, string>,
              body: payloads[t]?.[k] as Buffer,
            });
            const text = await res.text();
            if (res.status !== 204) {
              errors++;
              if (errors < 5) console.error(`  write → ${res.status} ${text.slice(0, 300)}`);
            } else acks.push({ at: performance.now(), points: pointsPerPayload(t, k) });
          } catch (error) {
            errors++;
            if (errors < 5) console.error(`  write failed: ${(error as Error).message}`);
          } finally {
            busy.delete(t);
          }
        }
      };
      await Promise.all(Array.from({ length: SENDERS }, sender));
    }
    if (!stopped) stopTime = performance.now();
    stopped = true;
    const seconds = (stopTime - t0) / 1000;
    const cpuServer = cpuSeconds(server.pid) - cpuServer0;
    const cpuClient = process.cpuUsage(cpuClient0);
    await queries.done;
    await sleep(1100);
    const lag = JSON.parse(readFileSync(lagFile, 'utf8')) as LoopLag;
    const stats = await api.call<{ accepted: number; rejected: Record<string, number> }>(
      'GET',
      '/api/telemetry/stats',
    );
    const points = acks.reduce((n, a) => n + a.points, 0);
    await server.stop();
    const path = join(dataDir, 'telemetry.duckdb');
    const bytes = vm ? await stopVm() : fileSize(path) + fileSize(`${path}.wal`);
    const atRest = AT_REST && !vm ? await maintained(dataDir) : undefined;
    if (profDir) log(`  CPU profile of the server kept in ${profDir} (removed at exit unless --keep)`);
    removeDir(dataDir);
    return {
      label,
      rates: windowRates(acks, t0, WINDOW, WARMUP, stopTime),
      seconds,
      points,
      errors: errors + queries.errors(),
      realtime: queries.realtime,
      data: queries.data,
      serverCores: cpuServer / seconds,
      clientCores: (cpuClient.user + cpuClient.system) / 1e6 / seconds,
      lag,
      bytesPerPoint: bytes / stats.accepted,
      ...(atRest
        ? {
            atRest: {
              seconds: atRest.seconds,
              bytesPerPoint: atRest.bytes / stats.accepted,
              usedPerPoint: atRest.used / stats.accepted,
            },
          }
        : {}),
      stats: { accepted: stats.accepted, rejected: stats.rejected },
    };
  } finally {
    await server.stop();
    await stopVm();
  }
}

/** The store's maintenance on a stopped server's folder: its time, then the file and the blocks in use. */
async function maintained(dataDir: string): Promise<{ seconds: number; bytes: number; used: number }> {
  const store = await openTelemetryStore({ dataDir, timeZone: TIME_ZONE, retention: DEFAULT_RETENTION });
  const t0 = performance.now();
  await store.applyRetention(Date.now());
  const seconds = (performance.now() - t0) / 1000;
  await store.close();
  const path = join(dataDir, 'telemetry.duckdb');
  const blocks = await duckdbBlocks(path);
  return {
    seconds,
    bytes: fileSize(path) + fileSize(`${path}.wal`),
    used: (blocks.total - blocks.free) * blocks.blockSize,
  };
}

// ---------------------------------------------------------------- main

async function main() {
  log(
    `ingest benchmark: ${THINGS} things × ${NM} abilities = ${SERIES} series, ${DAYS} days × ${INTERVAL / 1000} s = ` +
      `${fmt(total)} points available (${new Date(start).toISOString()} → ${new Date(end).toISOString()}); ` +
      `each run streams for ${SECONDS} s, windows of ${WINDOW / 1000} s after a ${WARMUP / 1000} s warm-up`,
  );
  log(machine());
  let t = performance.now();
  const values = generateValues();
  log(`generated the values in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const results: RunResult[] = [];
  if (!flag('skip-baseline')) {
    log(
      'baseline: DuckDB appender into a bare (series_id INTEGER, ts BIGINT, value DOUBLE) table, 100k-point commits…',
    );
    const base = await baseline(values);
    summarize(base.label, base.rates, WINDOW);
    results.push(base);
  }

  const lineModes = MODES.filter((m) => m === 'line' || m === 'line-gzip');
  if (lineModes.length > 0) {
    t = performance.now();
    const identity = lineBodies(values);
    const sizes = identity.flat().reduce((n, b) => n + b.length, 0);
    log(
      `line protocol: ${identity.flat().length} bodies of ${LINES} lines (${fmt(LINES * NM)} values), ` +
        `${(sizes / total).toFixed(1)} bytes/point, built in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    const lines = (_t: number, k: number) => pointsOf(Math.min(LINES, steps - k * LINES));
    for (const mode of lineModes) {
      let bodies = identity;
      if (mode === 'line-gzip') {
        t = performance.now();
        const zip = promisify(gzip);
        bodies = await Promise.all(
          identity.map((list) => Promise.all(list.map((b) => zip(b, { level: 6 })))),
        );
        const zsize = bodies.flat().reduce((n, b) => n + b.length, 0);
        log(
          `  gzip (level 6, like Telegraf): ${(zsize / total).toFixed(2)} bytes/point, in ${((performance.now() - t) / 1000).toFixed(1)} s`,
        );
      }
      log(`${mode}: server on :${PORT}, ${SENDERS} concurrent senders, load average ${loadAverage()}…`);
      for (const victoria of VICTORIA ? [false, true] : [false]) {
        const r = await runServer(
          `HTTP line protocol${mode === 'line-gzip' ? ' (gzip)' : ' (identity)'}, ${SENDERS} senders × ${LINES} lines${victoria ? ', VictoriaMetrics' : ''}`,
          mode as 'line' | 'line-gzip',
          bodies,
          lines,
          victoria,
        );
        report(r, WINDOW);
        results.push(r);
      }
    }
  }
  if (MODES.includes('mqtt')) {
    t = performance.now();
    const payloads = mqttPayloads(values);
    const sizes = payloads.flat().reduce((n, b) => n + b.length, 0);
    log(
      `mqtt: ${payloads.flat().length} payloads of ${MQTT_BATCH} messages (${fmt(MQTT_BATCH * NM)} values), ` +
        `${(sizes / total).toFixed(1)} bytes/point, built in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    log(
      `mqtt: server on :${PORT}, broker :${MQTT_PORT}, ${THINGS} clients × ${MQTT_INFLIGHT} publishes in flight, QoS 1, load average ${loadAverage()}…`,
    );
    for (const victoria of VICTORIA ? [false, true] : [false]) {
      const r = await runServer(
        `MQTT QoS 1, ${THINGS} clients × ${MQTT_INFLIGHT} in flight × ${MQTT_BATCH} messages${victoria ? ', VictoriaMetrics' : ''}`,
        'mqtt',
        payloads,
        (_t, k) => pointsOf(Math.min(MQTT_BATCH, steps - k * MQTT_BATCH)),
        victoria,
      );
      report(r, WINDOW);
      results.push(r);
    }
  }

  summaryTable(results);
}

await main();
process.exit(0);
