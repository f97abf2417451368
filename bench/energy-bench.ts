/**
 * The energy numbers counter buckets move (issue 19: interval-ending counters), each timed over
 * HTTP on one plant: statistics (30 days by day, a day by hour, a year by month — the read EnPI
 * makes), a data query of 30 days by day (what board and KPI components ask), the TPFC and the
 * bill of a month, and the overview. Median wall time and median CPU time of the process
 * (server and client) over `--runs`, after two warm-ups; GET /api/health as the same-run floor.
 * Run it on two builds one after the other (each loads its own plant) for a before/after.
 *
 *   npx tsx bench/energy-bench.ts [--things 200] [--days 30] [--interval 300] [--runs 9] [--port 19260]
 */
import { PlantCalendar } from '@kilowatch/contract';
import { exampleTariff } from '../server/src/modules/energy/tariffs/testing.ts';
import {
  DAY,
  fmt,
  loadAverage,
  log,
  machine,
  median,
  numArg,
  quantile,
  SECOND,
  TIME_ZONE,
} from './harness.ts';
import { createMeterModel, createMeters, startBenchApp, writeKwhCounters } from './kwh-meters.ts';

const THINGS = numArg('things', 200);
const DAYS = numArg('days', 30);
const INTERVAL = numArg('interval', 300) * SECOND;
const RUNS = numArg('runs', 9);
const PORT = numArg('port', 19260);

const running = await startBenchApp({ port: PORT });
const { app, api } = running;
try {
  log(machine());
  const calendar = new PlantCalendar(TIME_ZONE);
  const modelId = await createMeterModel(api);
  const region = await api.call<{ id: number }>('POST', '/api/regions', { name: 'Bench plant' });
  const ids = await createMeters(api, { modelId, count: THINGS, regionId: region.id });
  // Whole local days ending at today's midnight, and today up to now (the overview's "today").
  const end = calendar.startOfDay(Date.now());
  const start = calendar.dayStart(calendar.dayOf(end) - DAYS);
  const loaded = performance.now();
  const written = await writeKwhCounters(app, ids, {
    from: start,
    to: Date.now(),
    interval: INTERVAL,
    kw: (i, ts) => 20 + 15 * Math.sin(((ts - start) / DAY) * 2 * Math.PI) + (i % 7),
    resetStep: (i, steps) => Math.floor(steps / 2) + i,
  });
  log(
    `${fmt(written)} points (${THINGS} kWh counters × ${DAYS}+ days × ${INTERVAL / SECOND} s) in ${fmt((performance.now() - loaded) / 1000, 1)} s`,
  );
  const tariff = await api.call<{ tariff: { id: number } }>(
    'POST',
    '/api/tariffs',
    exampleTariff('2000-01-01'),
  );
  const month = calendar.format(calendar.dayStart(calendar.dayOf(end) - 1), 'YYYY-MM');

  const time = async (label: string, fn: () => Promise<unknown>) => {
    for (let i = 0; i < 2; i++) await fn();
    const ms: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const used = process.cpuUsage();
      const t = performance.now();
      await fn();
      ms.push(performance.now() - t);
      const d = process.cpuUsage(used);
      cpu.push((d.user + d.system) / 1000);
    }
    log(
      `${label}: median ${fmt(median(ms), 1)} ms, p95 ${fmt(quantile(ms, 0.95), 1)} ms, CPU ${fmt(median(cpu), 1)} ms`,
    );
  };
  log(`load average ${loadAverage()}`);
  await time('health', () => fetch(`${api.base}/api/health`).then((r) => r.text()));
  const stats = (body: Record<string, unknown>) => () =>
    api.call('POST', '/api/statistics/range', { metricIdentifier: 'EP', ...body });
  await time(
    `statistics ${THINGS} things × ${DAYS} days by day`,
    stats({
      resourceType: 'thing',
      resourceIds: ids,
      period: 'month',
      startTime: start,
      endTime: end,
      groupByTime: 'day',
    }),
  );
  await time(
    `statistics region × yesterday by hour`,
    stats({ resourceType: 'region', resourceIds: [region.id], period: 'day', startTime: end - DAY }),
  );
  await time(
    `statistics region × year by month (EnPI's read)`,
    stats({ resourceType: 'region', resourceIds: [region.id], period: 'year', startTime: end - DAY }),
  );
  await time(`query data region × ${DAYS} days by day (board, KPI components)`, () =>
    api.call('POST', '/api/query/data', {
      resourceType: 'region',
      resourceId: region.id,
      metricIdentifier: 'EP',
      startTime: start,
      endTime: end,
      groupByTime: 'day',
    }),
  );
  await time(`TPFC region × month ${month}, by thing`, () =>
    api.call('POST', '/api/statistics/range/TPFC', {
      tariffId: tariff.tariff.id,
      targets: [{ resourceType: 'region', resourceId: region.id }],
      byThing: true,
      period: 'month',
      startTime: end - DAY,
    }),
  );
  await time(`bill region × month ${month}`, () =>
    api.call('POST', '/api/tariffs/bill', {
      tariffId: tariff.tariff.id,
      resourceType: 'region',
      resourceId: region.id,
      month,
    }),
  );
  await time('overview (today)', () => api.call('GET', '/api/dashboard/overview'));
  log(`load average ${loadAverage()}`);
} finally {
  await running.stop();
}
