/**
 * Memory soak (issue 24): a server under a steady stream over MQTT with console queries polling, its
 * RSS sampled for `--minutes`. Prints the RSS curve (a line a minute), the slope of a least-squares
 * line over the last `--tail` minutes, and exits non-zero when that slope is above `--max-slope` MB/min.
 *
 * The stream: `--things` devices (10 values each, QoS 1 to v1/devices/me/telemetry) stamped with the
 * wall clock, one message every `--interval` ms each: 200 things every 200 ms are 10,000 points/s.
 * The console: every 5 s the realtime values of 10 things, the last 5 minutes of 10 series raw, and
 * today's energy statistics of the plant by hour, as the overview and monitoring screens poll.
 * The RSS is read every `--sample` seconds: the slope is fitted to all those samples (with its
 * standard error), as one sample a minute, spread ± 130 MB, could not tell 1 from 4 MB/min. Each
 * minute's line also gives, from the server's /metrics, the Node heap in use, the memory outside it
 * that Node counts (ArrayBuffers, Buffers), DuckDB's memory (`duckdb_memory()`, all tags) and the
 * hour and day rows the store keeps for reads.
 *
 *   npx tsx bench/soak-bench.ts [--minutes 60] [--tail 20] [--things 200] [--interval 200]
 *     [--sample 5] [--max-slope 1] [--port 19060]
 */
import type { MqttClient } from 'mqtt';
import {
  Api,
  createPlant,
  fmt,
  loadAverage,
  log,
  METRICS,
  MINUTE,
  machine,
  median,
  numArg,
  procStatusMb,
  quantile,
  removeDir,
  SECOND,
  sleep,
  startServer,
  tempDir,
} from './harness.ts';

const MINUTES = numArg('minutes', 60);
const TAIL = numArg('tail', 20);
const THINGS = numArg('things', 200);
const INTERVAL = numArg('interval', 200);
const MAX_SLOPE = numArg('max-slope', 1);
const SAMPLE = numArg('sample', 5);
const PORT = numArg('port', 19060);

/** Least-squares slope of y over x, and its standard error. */
function slope(xs: readonly number[], ys: readonly number[]): { slope: number; se: number } {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += ((xs[i] as number) - mx) * ((ys[i] as number) - my);
    den += ((xs[i] as number) - mx) ** 2;
  }
  const b = den ? num / den : 0;
  let residuals = 0;
  for (let i = 0; i < n; i++) residuals += ((ys[i] as number) - my - b * ((xs[i] as number) - mx)) ** 2;
  return { slope: b, se: den && n > 2 ? Math.sqrt(residuals / (n - 2) / den) : Number.NaN };
}

/**
 * Gauges of the server's /metrics (open from this machine), in MB: each the sum of the samples
 * whose name and labels start with its prefix (`name` alone, or `name{label="value`), NaN for one
 * it does not list. A failed scrape is said on stderr and gives NaN: the soak goes on without
 * those columns.
 */
async function gaugesMb(base: string, prefixes: readonly string[]): Promise<number[]> {
  let text: string;
  try {
    text = await (await fetch(`${base}/metrics`)).text();
  } catch (error) {
    console.error(`  /metrics not read: ${(error as Error).message}`);
    return prefixes.map(() => Number.NaN);
  }
  const lines = text.split('\n');
  return prefixes.map((prefix) => {
    let sum = Number.NaN;
    for (const line of lines) {
      if (!line.startsWith(prefix)) continue;
      const rest = line.slice(prefix.length);
      // The name must end here (not a longer name sharing the prefix) unless labels were given.
      if (!prefix.includes('{') && !(rest.startsWith(' ') || rest.startsWith('{'))) continue;
      sum = (Number.isNaN(sum) ? 0 : sum) + Number(line.slice(line.lastIndexOf(' ') + 1));
    }
    return sum / 2 ** 20;
  });
}

async function main() {
  const rate = (THINGS * METRICS.length * 1000) / INTERVAL;
  log(
    `soak-bench: ${machine()}; ${THINGS} things × ${METRICS.length} values every ${INTERVAL} ms = ${fmt(rate)} points/s over MQTT QoS 1, console queries every 5 s, ${MINUTES} min`,
  );
  const dataDir = tempDir('kilowatch-soak-');
  const server = await startServer({ dataDir, port: PORT, mqttPort: PORT + 1 });
  const clients: MqttClient[] = [];
  const timers: NodeJS.Timeout[] = [];
  let acked = 0;
  let publishErrors = 0;
  try {
    const api = new Api(server.base);
    await api.login();
    const plant = await createPlant(api, THINGS);
    const { default: mqtt } = await import('mqtt');
    const energy = plant.things.map(() => 0);
    for (const [t, thing] of plant.things.entries()) {
      const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, {
        username: thing.token,
        password: 'x',
        clientId: `soak-${t}`,
        protocolVersion: 4,
        reconnectPeriod: 1000,
      });
      clients.push(client);
      const send = () => {
        const p = 50 + 40 * Math.sin(Date.now() / 60_000 + t);
        energy[t] = (energy[t] as number) + (p * INTERVAL) / 3_600_000;
        const values: Record<string, number> = { EP: energy[t] as number, P: p, T: 20 + (t % 10) };
        for (const m of METRICS) values[m] ??= 220 + Math.random();
        client
          .publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: Date.now(), values }), { qos: 1 })
          .then(
            () => (acked += METRICS.length),
            () => publishErrors++,
          );
      };
      // Spread over the interval, so the stream is steady rather than a burst every interval.
      timers.push(setTimeout(() => timers.push(setInterval(send, INTERVAL)), (t * INTERVAL) / THINGS));
    }

    const ten = plant.things.slice(0, 10).map((t) => t.id);
    const queryMs: number[] = [];
    let queryErrors = 0;
    let skipped = 0;
    let polling = false;
    // As the console's queries do, a poll waits for the last one: a slow answer delays the next.
    const poll = async () => {
      if (polling) {
        skipped++;
        return;
      }
      polling = true;
      const now = Date.now();
      const started = performance.now();
      try {
        await Promise.all([
          ...ten.map((id) => api.call('GET', `/api/query/realtime?resourceType=thing&resourceId=${id}`)),
          api.call('POST', '/api/query/data', {
            resourceType: 'region',
            resourceId: plant.tenRegion,
            metricIdentifier: 'P',
            combine: 'none',
            startTime: now - 5 * MINUTE,
            endTime: now,
          }),
          api.call('POST', '/api/statistics/range', {
            metricIdentifier: 'EP',
            period: 'day',
            resourceType: 'region',
            resourceIds: [plant.allRegion],
          }),
        ]);
        queryMs.push(performance.now() - started);
      } catch (error) {
        if (queryErrors++ < 5) console.error(`  query failed: ${(error as Error).message}`);
      } finally {
        polling = false;
      }
    };
    timers.push(setInterval(() => void poll(), 5 * SECOND));

    const at: number[] = [];
    const rss: number[] = [];
    const t0 = Date.now();
    const sampler = setInterval(() => {
      at.push((Date.now() - t0) / MINUTE);
      rss.push(procStatusMb(server.pid, 'VmRSS'));
    }, SAMPLE * SECOND);
    timers.push(sampler);
    log(
      'minute  RSS MB  peak MB  heap MB  external MB  DuckDB MB  rollup rows MB  points acked  query p50 / p95 ms  load',
    );
    for (let minute = 1; minute <= MINUTES; minute++) {
      await sleep(t0 + minute * MINUTE - Date.now());
      const now = procStatusMb(server.pid, 'VmRSS');
      const [heap = Number.NaN, external = Number.NaN, duckdb = Number.NaN, rollups = Number.NaN] =
        await gaugesMb(server.base, [
          'nodejs_heap_size_used_bytes',
          'nodejs_external_memory_bytes',
          'kilowatch_telemetry_memory_bytes{part="duckdb_',
          'kilowatch_telemetry_memory_bytes{part="rollup_cache"',
        ]);
      const recent = queryMs.splice(0);
      log(
        `${String(minute).padStart(6)}  ${fmt(now).padStart(6)}  ${fmt(procStatusMb(server.pid, 'VmHWM')).padStart(7)}  ${fmt(heap).padStart(7)}  ${fmt(external).padStart(11)}  ${fmt(duckdb).padStart(9)}  ${fmt(rollups, 1).padStart(14)}  ${fmt(acked).padStart(12)}  ${fmt(median(recent), 0).padStart(6)} / ${fmt(quantile(recent, 0.95), 0).padStart(5)}  ${loadAverage()}`,
      );
    }
    clearInterval(sampler);
    const from = Math.max(
      0,
      at.findIndex((t) => t >= MINUTES - TAIL),
    );
    const tail = slope(at.slice(from), rss.slice(from));
    const ok = tail.slope <= MAX_SLOPE && publishErrors === 0;
    log(
      `\nRSS ${fmt(rss[0] ?? 0)} → ${fmt(rss.at(-1) ?? 0)} MB over ${MINUTES} min; slope over the last ${TAIL} min (${rss.length - from} samples, one every ${SAMPLE} s): ${fmt(tail.slope, 2)} ± ${fmt(tail.se, 2)} MB/min (goal ≤ ${MAX_SLOPE}) ${ok ? 'OK' : 'MISSED'}`,
    );
    log(
      `points acknowledged ${fmt(acked)} (${fmt(acked / (MINUTES * 60))}/s), publish errors ${publishErrors}, query errors ${queryErrors}, polls skipped while one ran ${skipped}`,
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    for (const timer of timers) clearInterval(timer);
    await Promise.all(clients.map((c) => c.endAsync().catch(() => undefined)));
    await server.stop();
    removeDir(dataDir);
  }
}

await main();
