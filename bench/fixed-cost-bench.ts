/**
 * The fixed cost of a query through HTTP, interleaved: a server with the bench plant (20 things ×
 * 10 abilities) and its last 15 minutes sent through the line protocol (in memory), then rounds in
 * which every request kind runs once in turn, so a busy machine slows them alike. Prints each
 * kind's median and its ratio to `GET /api/health` of the same rounds.
 *
 *   npx tsx bench/fixed-cost-bench.ts [--requests 300] [--rounds 3] [--port 18740] [--prof]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSteps } from './devices.ts';
import {
  Api,
  createPlant,
  flag,
  fmt,
  log,
  METRICS,
  MINUTE,
  machine,
  median,
  numArg,
  SECOND,
  startServer,
  tempDir,
} from './harness.ts';

const REQUESTS = numArg('requests', 300);
const ROUNDS = numArg('rounds', 3);
const PORT = numArg('port', 18740);
const WARMUP = 20;
const THINGS = 20;
const INTERVAL = 10 * SECOND;
const STEPS = 90;

// Kept after the run (not a tempDir): the profile is what --prof is for.
const profDir = flag('prof') ? mkdtempSync(join(tmpdir(), 'kw-fixed-prof-')) : undefined;
const server = await startServer({
  dataDir: tempDir('kw-fixed-'),
  port: PORT,
  mqttPort: PORT + 1,
  nodeArgs: profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : [],
});
const api = new Api(server.base);
await api.login();
const plant = await createPlant(api, THINGS);
const end = Math.floor(Date.now() / MINUTE) * MINUTE;
await writeSteps(server.base, plant, {
  from: 0,
  to: STEPS,
  start: end - STEPS * INTERVAL,
  intervalMs: INTERVAL,
  counter: new Float64Array(THINGS),
});

const last = end - INTERVAL;
const thing = (plant.things[0] as { id: number }).id;
const lastFive = {
  resourceType: 'region',
  resourceId: plant.tenRegion,
  metricIdentifier: 'P',
  combine: 'none',
  startTime: last + 1 - 5 * MINUTE,
  endTime: last + 1,
};
const twoPoints = {
  resourceType: 'thing',
  resourceId: thing,
  metricIdentifier: 'P',
  startTime: last + 1 - 20 * SECOND,
  endTime: last + 1,
};
const kinds: Record<string, () => Promise<unknown>> = {
  'GET /api/health': async () => (await fetch(`${server.base}/api/health`)).arrayBuffer(),
  'GET /api/query/realtime, 1 thing': () =>
    api.call('GET', `/api/query/realtime?resourceType=thing&resourceId=${thing}`),
  'POST /api/query/data, 2 points': () => api.call('POST', '/api/query/data', twoPoints),
  'POST /api/query/data, last 5 min × 10 series (300 points)': () =>
    api.call('POST', '/api/query/data', lastFive),
};

log(machine());
log(
  `${THINGS} things, ${fmt(STEPS * THINGS * METRICS.length)} points in memory; ${ROUNDS} rounds of ${REQUESTS}`,
);
for (let round = 1; round <= ROUNDS; round++) {
  const times = new Map(Object.keys(kinds).map((k) => [k, [] as number[]]));
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    for (const [name, send] of Object.entries(kinds)) {
      const t = performance.now();
      await send();
      if (i >= WARMUP) times.get(name)?.push(performance.now() - t);
    }
  }
  const floor = median(times.get('GET /api/health') ?? []);
  log(`round ${round}:`);
  for (const [name, t] of times)
    log(
      `  ${name.padEnd(60)} ${median(t).toFixed(3).padStart(7)} ms  ${(median(t) / floor).toFixed(2)}× health`,
    );
}
await server.stop();
if (profDir) log(`CPU profile of the server in ${profDir}`);
