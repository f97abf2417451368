/**
 * Ingest with 1,000 alarm monitors active vs none, same server, same run (issue 11 target: ≥ 90 %).
 * A server (child process, as ingest-bench.ts) with `--things` bench meters of 10 abilities; one rule
 * per ability (thresholds near the top of each metric's values, a range on Q, a rate of rise on the
 * EP counter; 30 s on and off delays) applied to every thing: 10 × 100 = 1,000 monitors, so every
 * point ingested is judged by one. The things publish over MQTT as in ingest-bench.ts (QoS 1, JSON
 * arrays of 500 messages; 1 in flight per device, 100 in all), the stream continuing in time from run to run.
 * Runs alternate A (rules enabled: the engine watches 1,000 pairs) and B (rules disabled: it
 * watches none) as A B B A …, after a warm-up run not counted, so drift of the machine's load falls on
 * both; each run's rate is the median of its windows after a warm-up, and the result the median of
 * the runs of each side. Beside the rate, points per second of server CPU: on a machine shared with
 * other work, what the server spends per point moves less than what it gets done.
 *
 *   npx tsx bench/alarm-ingest-bench.ts [--things 100] [--pairs 4] [--seconds 25] [--warmup 5] [--window 5]
 *     [--mqtt-batch 500] [--mqtt-inflight 1] [--rate-guess 600000] [--port 19230] [--mqtt-port 19231] [--prof]
 *   npm run bench:alarm-ingest -w bench
 */

import { mqttPayload, publishMqtt } from './devices.ts';
import {
  Api,
  cpuSeconds,
  createPlant,
  DAY,
  flag,
  fmt,
  loadAverage,
  log,
  METRICS,
  machine,
  median,
  numArg,
  quantile,
  removeDir,
  SECOND,
  sample,
  sleep,
  startServer,
  tempDir,
  windowRates,
} from './harness.ts';

const THINGS = numArg('things', 100);
const PAIRS = numArg('pairs', 4);
const SECONDS = numArg('seconds', 25);
const WARMUP = numArg('warmup', 5) * SECOND;
const WINDOW = numArg('window', 5) * SECOND;
const BATCH = numArg('mqtt-batch', 500);
const INFLIGHT = numArg('mqtt-inflight', 1);
const RATE_GUESS = numArg('rate-guess', 600_000);
const PORT = numArg('port', 19230);
const MQTT_PORT = numArg('mqtt-port', 19231);
const INTERVAL = 10 * SECOND;
const NM = METRICS.length;

// The stream: every thing from `start` on, 10 s steps, as far as the runs take it (≤ 60 days ago).
const steps = Math.floor((60 * DAY) / INTERVAL);
const start = Math.floor(Date.now() / INTERVAL) * INTERVAL - steps * INTERVAL;
const counter = new Float64Array(THINGS);
const generated = new Array<number>(THINGS).fill(0);
const queued: { body: Buffer; points: number }[][] = Array.from({ length: THINGS }, () => []);

/** Builds thing t's next `chunks` payloads (values generated in order: the counter carries on). */
function build(t: number, chunks: number): void {
  const from = generated[t] as number;
  const to = Math.min(steps, from + chunks * BATCH);
  const values = new Float64Array((to - from) * NM);
  const row = new Float64Array(NM);
  for (let i = from; i < to; i++) {
    sample(t, i, start + i * INTERVAL, INTERVAL, counter, row);
    values.set(row, (i - from) * NM);
  }
  for (let i = from; i < to; i += BATCH)
    queued[t]?.push({
      body: mqttPayload(values, i, Math.min(to, i + BATCH), start, INTERVAL, from),
      points: (Math.min(to, i + BATCH) - i) * NM,
    });
  generated[t] = to;
}

/**
 * One rule per ability, from the values of the first things' first day: thresholds at the 99.9th
 * percentile (a few excursions, most of them shorter than the on-delay), the range of Q, the rise of EP.
 */
function rules(categoryId: number) {
  const probe = new Float64Array(NM);
  const seen: number[][] = METRICS.map(() => []);
  const c = new Float64Array(THINGS);
  for (let t = 0; t < Math.min(THINGS, 5); t++) {
    for (let i = 0; i < DAY / INTERVAL; i++) {
      sample(t, i, start + i * INTERVAL, INTERVAL, c, probe);
      for (let a = 0; a < NM; a++) (seen[a] as number[]).push(probe[a] as number);
    }
  }
  const q = (a: number, p: number) => quantile(seen[a] as number[], p);
  return METRICS.map((ability, a) => ({
    name: `bench ${ability}`,
    templateId: null,
    categoryId,
    ability,
    condition:
      ability === 'EP'
        ? { kind: 'rate', op: '>', value: 1.4, seconds: 60 }
        : ability === 'Q'
          ? { kind: 'range', inside: false, low: q(a, 0.001), high: q(a, 0.999) }
          : { kind: 'threshold', op: '>', value: q(a, 0.999) },
    onDelay: 30,
    offDelay: 30,
    deadband: 0,
    severity: 'warning',
    message: '{thing} {value}{unit}',
  }));
}

interface Run {
  side: 'A' | 'B';
  rate: number;
  windows: number[];
  points: number;
  serverCores: number;
  /** Points per second of server CPU (all threads). */
  perCpu: number;
  alarms: number;
}

async function main() {
  log(machine());
  const dataDir = tempDir('kw-alarm-ingest-');
  const profDir = flag('prof') ? tempDir('kw-alarm-ingest-prof-') : undefined;
  const server = await startServer({
    dataDir,
    port: PORT,
    mqttPort: MQTT_PORT,
    nodeArgs: profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : [],
  });
  try {
    const api = new Api(server.base);
    await api.login();
    const plant = await createPlant(api, THINGS);
    const ids: number[] = [];
    for (const rule of rules(plant.categoryId)) {
      const { id } = await api.call<{ id: number }>('POST', '/api/alarm/rules', rule);
      await api.call('POST', '/api/alarm/monitors/batch', {
        appliedType: 'rule',
        appliedId: id,
        targets: plant.things.map((t) => ({ type: 'thing', id: t.id })),
      });
      ids.push(id);
    }
    const monitors = await api.call<{ total: number }>('GET', '/api/alarm/monitors?page=1&pageSize=1');
    log(
      `${THINGS} things × ${NM} abilities, ${ids.length} rules, ${fmt(monitors.total)} monitors; ` +
        `${PAIRS * 2} runs of ${SECONDS} s (A = rules enabled, B = disabled), windows of ${WINDOW / SECOND} s after ${WARMUP / SECOND} s`,
    );
    const perRun = Math.ceil((RATE_GUESS * SECONDS) / (THINGS * BATCH * NM));
    const alarmsSoFar = async () =>
      (await api.call<{ size: number }>('GET', '/api/alarm/history?page=1&pageSize=1')).size;

    const order = Array.from({ length: PAIRS }, (_, p) => (p % 2 === 0 ? ['A', 'B'] : ['B', 'A'])).flat() as (
      | 'A'
      | 'B'
    )[];
    const runs: Run[] = [];
    // The first run (rules enabled, not counted) warms the JIT and the store, and takes the first
    // alarms of the fresh rules, which would otherwise fall on whichever side came first.
    for (const [i, side] of [...(['A'] as const), ...order].entries()) {
      for (let t = 0; t < THINGS; t++) {
        const missing = perRun - (queued[t]?.length ?? 0);
        if (missing > 0) build(t, missing);
      }
      for (const id of ids)
        await api.call('POST', `/api/alarm/rules/${id}/state`, {
          action: side === 'A' ? 'enable' : 'disable',
        });
      const alarms0 = await alarmsSoFar();
      // The engine reloads after the last change; let it settle before the clock starts.
      await sleep(1000);
      const acks: { at: number; points: number }[] = [];
      let ranOut = false;
      const t0 = performance.now();
      const stopAt = t0 + SECONDS * SECOND;
      const cpu0 = cpuSeconds(server.pid);
      const sent = await publishMqtt({
        port: server.mqttPort,
        things: plant.things,
        inflight: INFLIGHT,
        clientId: `bench-${i}`,
        acks,
        isOver: () => performance.now() >= stopAt,
        next: (t) => {
          const payload = queued[t]?.shift();
          if (!payload) ranOut = true;
          return payload;
        },
      });
      const stop = performance.now();
      const cpu = cpuSeconds(server.pid) - cpu0;
      if (sent.errors > 0) throw new Error(`${sent.errors} publishes failed`);
      if (ranOut) log('  ran out of built payloads before the end of the run: raise --rate-guess');
      // Windows up to the end of the run: what is still in flight then drains into the CPU figures.
      const windows = windowRates(acks, t0, WINDOW, WARMUP, stopAt);
      const points = acks.reduce((n, a) => n + a.points, 0);
      const seconds = (stop - t0) / SECOND;
      const run: Run = {
        side,
        rate: median(windows),
        windows,
        points,
        serverCores: cpu / seconds,
        perCpu: points / cpu,
        alarms: (await alarmsSoFar()) - alarms0,
      };
      if (i > 0) runs.push(run);
      log(
        `  ${i === 0 ? 'warm-up' : `run ${i}`} ${side}: ${fmt(run.rate)} points/s (median of ${windows.length} windows, ` +
          `${fmt(Math.min(...windows))}–${fmt(Math.max(...windows))}), server ${run.serverCores.toFixed(2)} cores, ` +
          `${fmt(run.perCpu)} points per server CPU second, ${run.alarms} alarms raised; load ${loadAverage()}`,
      );
    }
    const side = (s: 'A' | 'B') => runs.filter((r) => r.side === s);
    const a = median(side('A').map((r) => r.rate));
    const b = median(side('B').map((r) => r.rate));
    const aCpu = median(side('A').map((r) => r.perCpu));
    const bCpu = median(side('B').map((r) => r.perCpu));
    log(`\nmedians of ${PAIRS} runs each (load average now ${loadAverage()}):`);
    log(`| | points/s | points per server CPU second | alarms raised per run |`);
    log(`|---|---:|---:|---:|`);
    log(
      `| B: no monitor active (baseline) | ${fmt(b)} | ${fmt(bCpu)} | ${median(side('B').map((r) => r.alarms))} |`,
    );
    log(
      `| A: ${fmt(monitors.total)} monitors active | ${fmt(a)} | ${fmt(aCpu)} | ${median(side('A').map((r) => r.alarms))} |`,
    );
    log(
      `| **A / B** | **${((100 * a) / b).toFixed(1)} %** | ${((100 * aCpu) / bCpu).toFixed(1)} % | target ≥ 90 % |`,
    );
    // Each pair of neighbouring runs (one A, one B) saw about the same machine: their ratios drift less.
    const pairs = Array.from({ length: PAIRS }, (_, p) => {
      const [x, y] = [runs[2 * p] as Run, runs[2 * p + 1] as Run];
      const [ra, rb] = x.side === 'A' ? [x, y] : [y, x];
      return { rate: ra.rate / rb.rate, cpu: ra.perCpu / rb.perCpu };
    });
    log(
      `| A / B, median of the ${PAIRS} pairs' ratios | ${(100 * median(pairs.map((p) => p.rate))).toFixed(1)} % | ` +
        `${(100 * median(pairs.map((p) => p.cpu))).toFixed(1)} % | |`,
    );
    if (profDir) log(`CPU profile of the server in ${profDir} (kept with --keep)`);
  } finally {
    await server.stop();
    removeDir(dataDir);
  }
}

await main();
process.exit(0);
