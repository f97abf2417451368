/**
 * The demo plant's history written by a running server (issue 24):
 *
 *   npx tsx bench/backfill-bench.ts [--days 7] [--step 10] [--things 120] [--port 18981] [--mqtt-port 18982]
 *     [--cpu-prof DIR]
 *
 * Starts a server on a fresh data folder with the demo plant on (SIMULATOR_HISTORY_DAYS/STEP set),
 * polls GET /api/demo/history (what the console's banner polls) until it is done, and meanwhile
 * asks for one thing's realtime values every 250 ms, as the console does. Reports the history's
 * time, points, points/s, the server's event-loop delay (bench/loop-lag.ts, preloaded) and the
 * realtime answers' p50/p95. `--cpu-prof DIR` writes the server's CPU profile there (node --cpu-prof).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Api,
  cpuSeconds,
  fmt,
  loadAverage,
  log,
  machine,
  numArg,
  quantile,
  removeDir,
  sleep,
  startServer,
  strArg,
  tempDir,
} from './harness.ts';

const DAYS = numArg('days', 7);
const STEP = numArg('step', 10);
const THINGS = numArg('things', 120);
const PORT = numArg('port', 18981);
const MQTT_PORT = numArg('mqtt-port', 18982);
const CPU_PROF = strArg('cpu-prof', '');
const QUERY_EVERY = 250;
/** How often the history's state is polled: the time's resolution (the 1-day history takes 8–10 s). */
const POLL_EVERY = 100;
/** Longest the bench waits for the history, ms. */
const TIMEOUT = numArg('timeout', 1200) * 1000;

interface Status {
  state: 'none' | 'running' | 'done' | 'failed';
  percent: number;
  points: number;
}
interface Lag {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

log(`backfill-bench: ${DAYS} days at ${STEP} s, ${THINGS} things; ${machine()}, load ${loadAverage()}`);
const dataDir = tempDir('kw-backfill-');
const lagFile = join(dataDir, 'loop-lag.json');
const server = await startServer({
  dataDir,
  port: PORT,
  mqttPort: MQTT_PORT,
  // tsx first: the preload is TypeScript.
  nodeArgs: [
    ...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : []),
    '--import',
    'tsx',
    '--import',
    join(import.meta.dirname, 'loop-lag.ts'),
  ],
  env: {
    LOOP_LAG_FILE: lagFile,
    SIMULATOR: 'on',
    SIMULATOR_THINGS: String(THINGS),
    SIMULATOR_HISTORY_DAYS: String(DAYS),
    SIMULATOR_HISTORY_STEP: String(STEP),
  },
});
try {
  const api = new Api(server.base);
  await api.login();
  const t0 = performance.now();
  let status = await api.call<Status>('GET', '/api/demo/history');
  // The demo seeds after the server listens: wait until its history starts.
  while (status.state === 'none' && performance.now() - t0 < 120_000) {
    await sleep(100);
    status = await api.call<Status>('GET', '/api/demo/history');
  }
  const began = performance.now();
  const cpuBefore = cpuSeconds(server.pid);
  process.kill(server.pid, 'SIGUSR2');
  const realtime: number[] = [];
  let errors = 0;
  let over = false;
  const queries = (async () => {
    while (!over) {
      await sleep(QUERY_EVERY);
      const t = performance.now();
      try {
        await api.call('GET', '/api/query/realtime?resourceType=thing&resourceId=1');
        realtime.push(performance.now() - t);
      } catch (error) {
        if (++errors < 5) console.error(`  realtime failed: ${(error as Error).message}`);
      }
    }
  })();
  let lastLog = began;
  while (status.state === 'running' && performance.now() - began < TIMEOUT) {
    await sleep(POLL_EVERY);
    status = await api.call<Status>('GET', '/api/demo/history');
    if (performance.now() - lastLog > 10_000) {
      lastLog = performance.now();
      log(
        `  ${fmt((lastLog - began) / 1000, 0)} s: ${status.percent} %, ${fmt(status.points)} points, load ${loadAverage()}`,
      );
    }
  }
  const seconds = (performance.now() - began) / 1000;
  const cpu = cpuSeconds(server.pid) - cpuBefore;
  over = true;
  await queries;
  // The preload writes its file every second: wait for one written after the end.
  await sleep(1100);
  const lag = JSON.parse(readFileSync(lagFile, 'utf8')) as Lag;
  const sorted = [...realtime].sort((a, b) => a - b);
  log(
    `state ${status.state}: ${fmt(status.points)} points in ${fmt(seconds, 1)} s (±${POLL_EVERY / 1000} s), ${fmt(status.points / seconds)} points/s`,
  );
  // All the server's threads (DuckDB's too): less moved by other work on the machine than the time.
  log(`server CPU (all threads) during it: ${fmt(cpu, 1)} s, ${fmt(cpu / seconds, 2)} cores`);
  log(`event-loop delay ms p50 / p95 / p99 / max: ${lag.p50} / ${lag.p95} / ${lag.p99} / ${lag.max}`);
  log(
    `realtime ms p50 / p95 / max: ${fmt(quantile(sorted, 0.5), 1)} / ${fmt(quantile(sorted, 0.95), 1)} / ${fmt(sorted.at(-1) ?? 0, 1)} (${realtime.length} answers, ${errors} errors)`,
  );
  log(`load ${loadAverage()}`);
} finally {
  await server.stop();
  removeDir(dataDir);
}
