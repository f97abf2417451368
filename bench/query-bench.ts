/**
 * End-to-end query benchmark: the plant (20 things × 10 abilities = 200 series) is created through
 * the API of a real server, the dataset (30 days × 10 s = 51.84 M points) is loaded through the
 * store's public entry (openTelemetryStore, the same write() the ingest uses) while no server holds
 * the file, then the server is started on it and each query is measured over HTTP (one keep-alive
 * client): median and p95 after a warm-up, with the server-side time from Fastify's request log.
 * Same-run baselines: GET /api/health (the noise floor of HTTP itself), a trivial /api/query/data
 * request (the fixed cost of a query) and, with the server stopped, the raw-table DuckDB query
 * opened read-only (the rollup gain). Disk bytes per point.
 *
 *   npx tsx bench/query-bench.ts [--things 20 | --series 200] [--days 30] [--interval 10] [--runs 20]
 *     [--port 18720] [--keep] [--prof] [--wing victoria [--vm-port 18728]]
 *   npm run bench:query -w bench
 *
 * `--wing victoria`: after the DuckDB pass, the same plant, load and queries again with the server on
 * the VictoriaMetrics wing (TELEMETRY_URL) of a victoria-metrics single node started here (Debian's
 * binary, a temporary folder), and one table with both columns.
 */
import { join } from 'node:path';
import { startVictoria, type VictoriaProcess } from '../server/src/telemetry/conformance/wings.ts';
import { openTelemetryStore, type Point } from '../server/src/telemetry/index.ts';
import { writeSteps } from './devices.ts';
import {
  ABILITIES,
  Api,
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
  median,
  numArg,
  type Plant,
  quantile,
  SECOND,
  type Server,
  sample,
  startServer,
  TIME_ZONE,
  tempDir,
} from './harness.ts';
import { rawComparison } from './raw-comparison.ts';

const THINGS = flag('series')
  ? Math.max(1, Math.round(numArg('series', 200) / METRICS.length))
  : numArg('things', 20);
const SERIES = THINGS * METRICS.length;
const DAYS = numArg('days', 30);
const INTERVAL = numArg('interval', 10) * 1000;
const RUNS = Math.max(5, numArg('runs', 20));
const WARMUP_RUNS = 3;
const PORT = numArg('port', 18720);
const MQTT_PORT = numArg('mqtt-port', 18890);
const NM = METRICS.length;
const STEPS_PER_CALL = Math.max(1, Math.round(10_000 / SERIES)); // write() calls of ~10,000 points
const IN_FLIGHT = 32;
const WING = flag('wing') ? 'victoria' : 'duckdb';
/**
 * After the load, the store's hourly maintenance runs once (raw compaction of the closed windows):
 * the layout of a server that has been up for an hour, not the first hour after a backfill.
 */
const MAINTAIN = !flag('no-maintain');
if (process.argv.includes('--wing') && process.argv[process.argv.indexOf('--wing') + 1] !== 'victoria')
  throw new Error('--wing takes victoria (the DuckDB pass always runs)');

const end = Math.floor(Date.now() / MINUTE) * MINUTE;
const steps = Math.floor((DAYS * DAY) / INTERVAL);
const start = end - steps * INTERVAL;
const total = steps * SERIES;
const last = start + (steps - 1) * INTERVAL;
/** The last 15 minutes are sent through the API once the server runs (a live plant: in memory). */
const LIVE_STEPS = Math.min(steps - 1, Math.round((15 * MINUTE) / INTERVAL));
const loadedPoints = (steps - LIVE_STEPS) * SERIES;
const counter = new Float64Array(THINGS);

interface Measured {
  name: string;
  median: number;
  p95: number;
  serverMedian?: number;
  target?: number;
  note?: string;
  /** The wing the server ran on. */
  wing?: 'duckdb' | 'victoria';
}
const results: Measured[] = [];
let currentWing: 'duckdb' | 'victoria' = 'duckdb';

async function load(plant: Plant, dataDir: string, vm?: VictoriaProcess): Promise<Loaded> {
  counter.fill(0);
  const options = {
    dataDir,
    timeZone: TIME_ZONE,
    retention: { rawDays: 90, minuteDays: 400, hourDays: 1830 },
  };
  const duck = vm ? undefined : await openTelemetryStore(options);
  const store = duck ?? (await openTelemetryStore({ ...options, url: vm?.url }));
  const row = new Float64Array(NM);
  const t0 = performance.now();
  let lastReport = t0;
  const inflight = new Set<Promise<void>>();
  for (let i0 = 0; i0 < steps - LIVE_STEPS; i0 += STEPS_PER_CALL) {
    const i1 = Math.min(steps - LIVE_STEPS, i0 + STEPS_PER_CALL);
    const points: Point[] = new Array((i1 - i0) * SERIES);
    let k = 0;
    for (let i = i0; i < i1; i++) {
      const ts = start + i * INTERVAL;
      for (let t = 0; t < THINGS; t++) {
        sample(t, i, ts, INTERVAL, counter, row);
        const thingId = (plant.things[t] as { id: number }).id;
        for (let a = 0; a < NM; a++)
          points[k++] = { thingId, metric: METRICS[a] as string, ts, value: row[a] as number };
      }
    }
    const p: Promise<void> = store.write(points).then(() => {
      inflight.delete(p);
    });
    inflight.add(p);
    if (inflight.size >= IN_FLIGHT) await Promise.race(inflight);
    if (performance.now() - lastReport > 15_000) {
      lastReport = performance.now();
      log(
        `  … ${((100 * i0) / steps).toFixed(0)} %, ${fmt((i0 * SERIES) / ((lastReport - t0) / 1000))} points/s, load average ${loadAverage()}`,
      );
    }
  }
  await Promise.all(inflight);
  const seconds = (performance.now() - t0) / 1000;
  if (!duck) {
    await store.close();
    return { seconds, bytes: 0 }; // measured when VictoriaMetrics stops (it holds recent parts in memory)
  }
  await duck.checkpoint();
  const path = join(dataDir, 'telemetry.duckdb');
  const bytes = fileSize(path) + fileSize(`${path}.wal`);
  if (!MAINTAIN) {
    await store.close();
    return { seconds, bytes };
  }
  const m0 = performance.now();
  await duck.applyRetention(Date.now());
  const maintainSeconds = (performance.now() - m0) / 1000;
  await store.close();
  const blocks = await duckdbBlocks(path);
  return {
    seconds,
    bytes,
    maintained: {
      seconds: maintainSeconds,
      bytes: fileSize(path) + fileSize(`${path}.wal`),
      usedBytes: (blocks.total - blocks.free) * blocks.blockSize,
    },
  };
}

interface Loaded {
  seconds: number;
  /** The file after the load and a checkpoint. */
  bytes: number;
  /** After the maintenance (MAINTAIN): its time, the file, and the blocks in use in it. */
  maintained?: { seconds: number; bytes: number; usedBytes: number };
}

/** The last LIVE_STEPS steps of every thing through the line-protocol write, like a running plant. */
function sendLiveTail(server: Server, plant: Plant) {
  return writeSteps(server.base, plant, {
    from: steps - LIVE_STEPS,
    to: steps,
    start,
    intervalMs: INTERVAL,
    counter,
  });
}

/** `fn(i)` sends one request tagged `seq=<tag>-<i>`; server time from the request log. */
async function measure(
  name: string,
  tag: string,
  server: Server,
  fn: (seq: string) => Promise<unknown>,
  target?: number,
  note?: string,
) {
  // The first call is timed apart: what a read costs before the store holds anything of it (the
  // hour and day rows kept in memory, docs/telemetry-store.md "Reads").
  const t0 = performance.now();
  await fn(`${tag}-w0`);
  const first = performance.now() - t0;
  for (let i = 1; i < WARMUP_RUNS; i++) await fn(`${tag}-w${i}`);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn(`${tag}-${i}`);
    times.push(performance.now() - t);
  }
  // The log line may arrive a moment after the response.
  await new Promise((r) => setTimeout(r, 100));
  const serverTimes = server.requests
    .filter((r) => new RegExp(`seq=${tag}-\\d+(x\\d+)?(&|$)`).test(r.url))
    .map((r) => r.responseTime);
  const m: Measured = {
    name,
    median: median(times),
    p95: quantile(times, 0.95),
    serverMedian: serverTimes.length ? median(serverTimes) : undefined,
    target,
    note,
    wing: currentWing,
  };
  results.push(m);
  log(
    `${name.padEnd(72)} first ${first.toFixed(2).padStart(7)} ms  median ${m.median.toFixed(2).padStart(7)} ms  p95 ${m.p95.toFixed(2).padStart(7)} ms  server ${
      m.serverMedian === undefined ? '   —' : m.serverMedian.toFixed(2).padStart(6)
    } ms${target === undefined ? '' : `  target ≤ ${target} ms ${m.median <= target ? 'OK' : 'MISSED'}`}${note ? `  (${note})` : ''}`,
  );
  return m;
}

interface DataAnswer {
  result: { key: number; value: number | null; group: string; complete: boolean }[];
  resolution: string;
}

async function queries(api: Api, server: Server, plant: Plant) {
  const thing = (plant.things[0] as { id: number }).id;
  const data = (seq: string, body: Record<string, unknown>) =>
    api.call<DataAnswer>('POST', `/api/query/data?seq=${seq}`, body);
  const monthStart = end - DAYS * DAY;
  const shapes: string[] = [];
  const shape = async (label: string, body: Record<string, unknown>) => {
    const a = await data('shape', body);
    shapes.push(`${label}: ${a.result.length} points, resolution ${a.resolution}`);
  };

  await measure('baseline: GET /api/health (HTTP round trip + SQLite ping)', 'h', server, async (seq) => {
    const res = await fetch(`${server.base}/api/health?seq=${seq}`);
    await res.arrayBuffer();
  });
  await measure(
    'baseline: POST /api/query/data, 1 series, last 20 s raw (2 points, in memory)',
    'h2',
    server,
    (seq) =>
      data(seq, {
        resourceType: 'thing',
        resourceId: thing,
        metricIdentifier: 'P',
        startTime: last + 1 - 20 * SECOND,
        endTime: last + 1,
      }),
    undefined,
    'the fixed cost of a query request',
  );

  await measure(
    'baseline: GET /api/query/realtime, 1 thing (10 latest values, in memory)',
    'rt',
    server,
    (seq) => api.call('GET', `/api/query/realtime?resourceType=thing&resourceId=${thing}&seq=${seq}`),
    undefined,
    'the fixed cost of a read without a body',
  );

  const last5 = {
    resourceType: 'region',
    resourceId: plant.tenRegion,
    metricIdentifier: 'P',
    combine: 'none',
  };
  const range5 = { startTime: last + 1 - 5 * MINUTE, endTime: last + 1 };
  await shape('last 5 min raw', { ...last5, ...range5 });
  await measure(
    'last 5 min of 10 series, raw points (1 region request, combine none)',
    'q1',
    server,
    (seq) => data(seq, { ...last5, ...range5 }),
    5,
    'sent through the API after start: in memory',
  );
  await shape('last 5 min 10 s', { ...last5, ...range5, groupByTime: 'second', groupByInterval: 10 });
  await measure(
    'last 5 min of 10 series, 10 s avg buckets',
    'q1b',
    server,
    (seq) => data(seq, { ...last5, ...range5, groupByTime: 'second', groupByInterval: 10 }),
    5,
  );
  const hourAgo = { startTime: last + 1 - 65 * MINUTE, endTime: last + 1 - 60 * MINUTE };
  await measure(
    '  5 min of 10 series an hour ago, raw points (stored)',
    'q1c',
    server,
    (seq) => data(seq, { ...last5, ...hourAgo }),
    undefined,
    'loaded before the start: stored',
  );
  await measure('  5 min of 10 series an hour ago, 10 s avg buckets (stored)', 'q1d', server, (seq) =>
    data(seq, { ...last5, ...hourAgo, groupByTime: 'second', groupByInterval: 10 }),
  );

  const month = { resourceType: 'thing', resourceId: thing, startTime: monthStart, endTime: end };
  await shape(`${DAYS} days daily`, { ...month, metricIdentifier: 'P', groupByTime: 'day' });
  await measure(
    `1 series × ${DAYS} days → daily avg (P)`,
    'q2',
    server,
    (seq) => data(seq, { ...month, metricIdentifier: 'P', groupByTime: 'day' }),
    10,
  );
  await measure(
    `1 series × ${DAYS} days → daily consumption (EP delta)`,
    'q2b',
    server,
    (seq) => data(seq, { ...month, metricIdentifier: 'EP', groupByTime: 'day' }),
    10,
  );

  // Yesterday, the plant's local day: 24 hourly buckets.
  const day = {
    resourceType: 'thing',
    resourceId: thing,
    metricIdentifier: 'P',
    period: 'day',
    startTime: end - DAY,
    groupByTime: 'hour',
  };
  await shape('1 day hourly', day);
  for (const aggregator of ['avg', 'max', 'min'] as const) {
    await measure(
      `1 series × 1 day → hourly ${aggregator}`,
      `q3${aggregator}`,
      server,
      (seq) => data(seq, { ...day, aggregator }),
      5,
    );
  }
  await measure('1 series × 1 day → hourly avg + max + min (3 requests at once)', 'q3all', server, (seq) =>
    Promise.all(
      (['avg', 'max', 'min'] as const).map((aggregator, j) => data(`${seq}x${j}`, { ...day, aggregator })),
    ),
  );

  const plantMonth = {
    resourceType: 'region',
    resourceId: plant.allRegion,
    combine: 'none',
    groupByTime: 'day',
    aggregator: 'delta',
    startTime: monthStart,
    endTime: end,
  };
  await shape('200 series daily (EP)', { ...plantMonth, metricIdentifier: 'EP' });
  await measure(
    `${SERIES} series × ${DAYS} days → daily delta (${NM} region requests at once, one per ability)`,
    'q4',
    server,
    (seq) =>
      Promise.all(
        METRICS.map((metric, j) => data(`${seq}x${j}`, { ...plantMonth, metricIdentifier: metric })),
      ),
    100,
  );
  await measure(
    `  ${THINGS} series × ${DAYS} days → daily consumption (EP, 1 region request)`,
    'q4ep',
    server,
    (seq) => data(seq, { ...plantMonth, metricIdentifier: 'EP' }),
  );

  const chart = { ...month, metricIdentifier: 'P', maxPoints: 2000 };
  await shape(`${DAYS} days → ≤ 2,000 points`, chart);
  await measure(
    `1 series × ${DAYS} days → downsampled to ≤ 2,000 points`,
    'q5',
    server,
    (seq) => data(seq, chart),
    20,
  );
  for (const s of shapes) log(`  shape: ${s}`);
}

/** One pass: the plant through a server on this wing, the load, the queries. */
async function pass(vm?: VictoriaProcess): Promise<{ loaded: Loaded; dataDir: string; plant: Plant }> {
  currentWing = vm ? 'victoria' : 'duckdb';
  const env: Record<string, string> = vm ? { TELEMETRY_URL: vm.url } : {};
  const dataDir = tempDir('kw-query-');
  log(`\n== ${currentWing} wing ==  data folder ${dataDir}${vm ? `, VictoriaMetrics ${vm.url}` : ''}`);

  let server = await startServer({ dataDir, port: PORT, mqttPort: MQTT_PORT, env });
  let api = new Api(server.base);
  await api.login();
  const plant = await createPlant(api, THINGS);
  await server.stop();
  log(
    `created through the API: category with ${ABILITIES.length} abilities, a model, ${THINGS} things, 2 regions`,
  );

  log(`loading through openTelemetryStore().write(), server stopped…`);
  const loaded = await load(plant, dataDir, vm);
  log(
    `loaded ${fmt(loadedPoints)} points in ${loaded.seconds.toFixed(1)} s (${fmt(loadedPoints / loaded.seconds)} points/s)` +
      (vm
        ? ''
        : `; telemetry.duckdb after a checkpoint: ${(loaded.bytes / 1e6).toFixed(1)} MB = ${(loaded.bytes / loadedPoints).toFixed(2)} bytes/point`),
  );
  const m = loaded.maintained;
  if (m)
    log(
      `maintenance (raw compaction of the closed windows, checkpoint) in ${m.seconds.toFixed(1)} s; the file after close: ${(m.bytes / loadedPoints).toFixed(2)} bytes/point, blocks in use ${(m.usedBytes / loadedPoints).toFixed(2)} bytes/point`,
    );

  const profDir = flag('prof') ? tempDir('kw-query-prof-') : undefined;
  server = await startServer({
    dataDir,
    port: PORT,
    mqttPort: MQTT_PORT,
    logLevel: 'info',
    nodeArgs: profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : [],
    env,
  });
  api = new Api(server.base);
  await api.login();
  await sendLiveTail(server, plant);
  log(`sent the last ${LIVE_STEPS} steps (${fmt(LIVE_STEPS * SERIES)} points) through POST /api/v2/write`);
  log(
    `server on ${server.base}, load average ${loadAverage()}; ${WARMUP_RUNS} warm-up runs, then ${RUNS} measured:`,
  );
  await queries(api, server, plant);
  await server.stop();
  if (profDir) log(`CPU profile of the server in ${profDir} (removed at exit unless --keep)`);
  return { loaded, dataDir, plant };
}

async function main() {
  log(
    `query benchmark: ${THINGS} things × ${NM} abilities = ${SERIES} series × ${DAYS} days × ${INTERVAL / 1000} s = ${fmt(total)} points`,
  );
  log(machine());
  const { loaded, dataDir, plant } = await pass();
  const path = join(dataDir, 'telemetry.duckdb');
  const after = fileSize(path) + fileSize(`${path}.wal`);
  log(`after the server stopped: ${(after / 1e6).toFixed(1)} MB = ${(after / total).toFixed(2)} bytes/point`);

  log('server stopped; the raw table for comparison (read-only):');
  results.push(...(await rawComparison(dataDir, plant, { end, days: DAYS, runs: RUNS, series: SERIES })));

  let vmLoaded: Loaded | undefined;
  if (WING === 'victoria') {
    if (flag('vm-port')) process.env.VICTORIA_TEST_PORT = String(numArg('vm-port', 18728));
    const vm = await startVictoria();
    let bytes = 0;
    try {
      vmLoaded = (await pass(vm)).loaded;
    } finally {
      bytes = await vm.stop();
    }
    vmLoaded.bytes = bytes;
    log(`VictoriaMetrics folder after it stopped: ${(bytes / 1e6).toFixed(1)} MB`);
  }

  const health = results[0] as Measured;
  log(`\nsummary (load average now ${loadAverage()}):`);
  if (!vmLoaded) {
    log('| query | median ms | p95 ms | server-side median ms | − health floor | × health floor | target |');
    log('|---|---:|---:|---:|---:|---:|---|');
    for (const r of results) {
      const http = r.wing !== undefined && r !== health;
      log(
        `| ${r.name.trim()} | ${r.median.toFixed(2)} | ${r.p95.toFixed(2)} | ${r.serverMedian?.toFixed(2) ?? ''} | ${
          http ? (r.median - health.median).toFixed(2) : ''
        } | ${http ? (r.median / health.median).toFixed(2) : ''} | ${
          r.target === undefined ? '' : `≤ ${r.target} ${r.median <= r.target ? 'OK' : 'MISSED'}`
        } |`,
      );
    }
    log(
      `| disk after load | ${(loaded.bytes / loadedPoints).toFixed(2)} bytes/point (${(loaded.bytes / 1e6).toFixed(0)} MB) | | | | |`,
    );
    return;
  }
  log(
    '| query | DuckDB median ms | DuckDB p95 ms | VictoriaMetrics median ms | VictoriaMetrics p95 ms | target |',
  );
  log('|---|---:|---:|---:|---:|---|');
  for (const r of results.filter((x) => x.wing === 'duckdb')) {
    const v = results.find((x) => x.wing === 'victoria' && x.name === r.name);
    log(
      `| ${r.name.trim()} | ${r.median.toFixed(2)} | ${r.p95.toFixed(2)} | ${v ? v.median.toFixed(2) : ''} | ${
        v ? v.p95.toFixed(2) : ''
      } | ${r.target === undefined ? '' : `≤ ${r.target}`} |`,
    );
  }
  log(
    `| load (points/s) | ${fmt(loadedPoints / loaded.seconds)} | | ${fmt(loadedPoints / vmLoaded.seconds)} | | |`,
  );
  log(
    `| disk (bytes/point; VictoriaMetrics after it stopped) | ${(loaded.bytes / loadedPoints).toFixed(2)} | | ${(vmLoaded.bytes / total).toFixed(2)} | | |`,
  );
}

await main();
process.exit(0);
