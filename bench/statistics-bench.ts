/**
 * Energy statistics (issue 12 target: 200 things × 30 days by day ≤ 50 ms median from the API with
 * 30 days of 10 s data loaded). The app runs in this process on its own port and DATA_DIR; the
 * things are created through the API, their kWh counters (with a reset each) written through the
 * store's write(), then POST /api/statistics/range is timed over HTTP. Same-run baselines: GET
 * /api/health (HTTP's own cost) and the same consumption computed from the raw points (every
 * point read with points(), the counter rule applied per day in JS).
 *
 *   npx tsx bench/statistics-bench.ts [--things 200] [--days 30] [--interval 10] [--runs 15] [--port 19250]
 *     [--dir D] [--raw-runs 3]
 *
 * With --dir, the plant is built and loaded into D once and kept; later runs with the same --dir
 * measure it again without the load (tens of minutes on a busy machine). --raw-runs 0 skips the
 * raw-points baseline (minutes a run).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { PlantCalendar } from '@kilowatch/contract';
import { counterIncrement } from '../server/src/telemetry/counter.ts';
import {
  type Api,
  DAY,
  fmt,
  log,
  machine,
  median,
  numArg,
  quantile,
  SECOND,
  strArg,
  TIME_ZONE,
} from './harness.ts';
import { createMeterModel, createMeters, startBenchApp, writeKwhCounters } from './kwh-meters.ts';

const THINGS = numArg('things', 200);
const DAYS = numArg('days', 30);
const INTERVAL = numArg('interval', 10) * SECOND;
const RUNS = numArg('runs', 15);
const PORT = numArg('port', 19250);
const RAW_RUNS = numArg('raw-runs', 3);
const keptDir = strArg('dir', '');

/** What a kept plant remembers between runs. */
const planFile = `${keptDir}/statistics-bench.json`;
interface Plan {
  ids: number[];
  regionId: number;
  start: number;
  end: number;
}
const running = await startBenchApp({ port: PORT, ...(keptDir ? { dataDir: keptDir } : {}) });
const { app, api } = running;
try {
  log(machine());

  const calendar = new PlantCalendar(TIME_ZONE);
  let plan: Plan;
  if (keptDir && existsSync(planFile)) {
    plan = JSON.parse(readFileSync(planFile, 'utf8')) as Plan;
    log(`plant of ${plan.ids.length} things kept in ${keptDir}: not loaded again`);
  } else {
    plan = await buildPlant(api, calendar);
    if (keptDir) writeFileSync(planFile, JSON.stringify(plan));
  }
  const { ids, start, end } = plan;
  const region = { id: plan.regionId };

  /**
   * Median wall time, and median CPU time of this process (server and client together, all
   * threads): on a shared machine the wall time follows the other sessions' load, the CPU time
   * much less.
   */
  const time = async (label: string, fn: () => Promise<unknown>, runs = RUNS, warmups = 2) => {
    for (let i = 0; i < warmups; i++) await fn();
    const ms: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < runs; i++) {
      const used = process.cpuUsage();
      const t = performance.now();
      await fn();
      ms.push(performance.now() - t);
      const d = process.cpuUsage(used);
      cpu.push((d.user + d.system) / 1000);
    }
    log(
      `${label}: median ${fmt(median(ms), 1)} ms, p95 ${fmt(quantile(ms, 0.95), 1)} ms, CPU ${fmt(median(cpu), 1)} ms over ${runs} runs`,
    );
    return median(ms);
  };
  const body = {
    metricIdentifier: 'EP',
    period: 'month',
    startTime: start,
    endTime: end,
    groupByTime: 'day',
  };
  await time('baseline: GET /api/health', () => fetch(`${api.base}/api/health`).then((r) => r.text()));
  const perThing = await time(
    `POST /api/statistics/range, ${THINGS} things × ${DAYS} days by day (${THINGS} series + SUM)`,
    () => api.call('POST', '/api/statistics/range', { ...body, resourceType: 'thing', resourceIds: ids }),
  );
  await time(`POST /api/statistics/range, 1 region of ${THINGS} things × ${DAYS} days by day`, () =>
    api.call('POST', '/api/statistics/range', { ...body, resourceType: 'region', resourceIds: [region.id] }),
  );

  // The same consumption from raw points: every point read, the counter rule applied per local day.
  if (RAW_RUNS > 0) {
    const raw = await time(
      `raw points: ${THINGS} series × ${DAYS} days → daily consumption (points() + counter rule in JS)`,
      async () => {
        for (const thingId of ids) {
          const points = await app.telemetry.points({ thingId, metric: 'EP' }, start, end, 10_000_000);
          const days = new Map<number, number>();
          let prev: number | null = null;
          for (const p of points) {
            const day = calendar.dayOf(p.ts);
            days.set(day, (days.get(day) ?? 0) + counterIncrement(prev, p.value));
            prev = p.value;
          }
        }
      },
      RAW_RUNS,
      0,
    );
    log(`statistics from the API is ${fmt(raw / perThing, 0)}× faster than the raw points; target ≤ 50 ms`);
  }
} finally {
  await running.stop();
}

/** 200 things with a kWh counter in one region, created through the API, and their points written. */
async function buildPlant(api: Api, calendar: PlantCalendar): Promise<Plan> {
  const modelId = await createMeterModel(api);
  const region = await api.call<{ id: number }>('POST', '/api/regions', { name: 'Bench plant' });
  const ids = await createMeters(api, { modelId, count: THINGS, regionId: region.id });

  // 30 local days ending at today's midnight, so the range is whole days.
  const end = calendar.startOfDay(Date.now());
  const start = calendar.dayStart(calendar.dayOf(end) - DAYS);
  const loadStarted = performance.now();
  const written = await writeKwhCounters(app, ids, {
    from: start,
    to: end,
    interval: INTERVAL,
    // A load curve of a few kW; each meter resets once, on its own day.
    kw: (i, ts) => 20 + 15 * Math.sin(((ts - start) / DAY) * 2 * Math.PI) + (i % 7),
    resetStep: (i, steps) => Math.floor(steps / 2) + i,
  });
  log(
    `${fmt(written)} points (${THINGS} kWh counters × ${DAYS} days × ${INTERVAL / SECOND} s) loaded in ${fmt((performance.now() - loadStarted) / 1000, 1)} s`,
  );
  return { ids, regionId: region.id, start, end };
}
