/**
 * Cost by tariff band (POST /api/statistics/range/TPFC, issue 12 target: ≤ 200 ms) for 200 meters
 * over one month, by day, through the tariff service as the route calls it: the counters'
 * consumption per slot from the telemetry store (hours, since the example tariff's edges are on
 * the hour), each slot priced by its band. Baselines in the same run: the same hourly counter read
 * alone (what the split must read), and the 15-minute read a quarter-hour tariff would need.
 * Then a quarter-hour tariff (edges at :15 and :45, `QUARTER_DAY`): its TPFC as it reads now (hour
 * rows, minute rows for the 5 hours a day an edge cuts) and as it read before (minute rows for the
 * whole month, `wholeSlots`), each run beside the hourly tariff's TPFC as the same-run baseline.
 *
 *   npx tsx bench/tariff-bench.ts [--things 200] [--interval 60] [--runs 7]
 */
import { PlantCalendar, type Thing } from '@kilowatch/contract';
import { createTariffService } from '../server/src/modules/energy/index.ts';
import {
  exampleTariff,
  exampleVersion,
  quarterSeasons,
} from '../server/src/modules/energy/tariffs/testing.ts';
import type { Point } from '../server/src/telemetry/index.ts';
import { DAY, fmt, log, machine, median, numArg, SECOND, TIME_ZONE } from './harness.ts';
import { openStoreAndDatabase } from './kwh-meters.ts';

const thingCount = numArg('things', 200);
const interval = numArg('interval', 60) * SECOND;
const runs = numArg('runs', 7);

const { store, database, close } = await openStoreAndDatabase('tariff-bench');
try {
  log(machine());
  const calendar = new PlantCalendar(TIME_ZONE);
  // A whole past month inside the raw retention: the one 35 days ago.
  const at = Date.now() - 35 * DAY;
  const { start, end } = calendar.periodRange('month', at);

  const things = Array.from({ length: thingCount }, (_, i) => ({ id: i + 1, name: `电表${i + 1}` }) as Thing);
  let batch: Point[] = [];
  let count = 0;
  for (const thing of things) {
    let value = 1000 * thing.id;
    for (let ts = start - interval; ts < end; ts += interval) {
      // 20–80 kW with a daily shape: a few kWh a minute.
      const hour = ((ts - start) / 3_600_000) % 24;
      value += ((20 + 60 * Math.max(0, Math.sin((Math.PI * (hour - 6)) / 14))) * interval) / 3_600_000;
      batch.push({ thingId: thing.id, metric: 'EP', ts, value });
      if (batch.length === 50_000) {
        await store.write(batch);
        count += batch.length;
        batch = [];
      }
    }
  }
  if (batch.length > 0) await store.write(batch);
  count += batch.length;
  log(
    `${fmt(count)} counter points: ${thingCount} meters over ${calendar.format(start, 'YYYY-MM')}, every ${interval / SECOND} s`,
  );

  const abilities = new Map(things.map((t) => [t.id, [{ identifier: 'EP', cumulative: true }]]));
  const deps = {
    db: database.db,
    // The region's meters, as the catalog answers them (cached there in the server).
    catalog: { select: async () => ({ name: '全厂', things, abilities }) } as never,
    store,
    calendar,
    now: Date.now,
  };
  const service = createTariffService(deps);
  const wholeSlots = createTariffService({ ...deps, wholeSlots: true });
  const tariff = (await service.create(exampleTariff('2020-01-01'))).tariff;
  const query = {
    tariffId: tariff.id,
    targets: [{ resourceType: 'region' as const, resourceId: 1 }],
    byThing: true,
    period: 'month' as const,
    startTime: at,
  };
  const series = things.map((t) => ({ thingId: t.id, metric: 'EP' }));

  const read: number[] = [];
  const quarter: number[] = [];
  const tpfc: number[] = [];
  let total = 0;
  // The read and the TPFC back to back, so both find DuckDB's cache as the other left it; the
  // 15-minute read (minute rows, 60× the hour rows) runs apart, after: it pushed the hour rows out
  // of the 1 GB buffer pool and slowed the TPFC that followed it.
  for (let run = 0; run < runs + 1; run++) {
    let t = performance.now();
    await store.bucketColumns({ series, start, end, bucket: { widthMs: 60 * 60_000 }, aggregator: 'delta' });
    const readMs = performance.now() - t;
    t = performance.now();
    const answer = await service.tpfc(query);
    const tpfcMs = performance.now() - t;
    total = answer.rows.reduce((s, r) => s + r.total.totalCost, 0);
    // The first run warms the JIT and DuckDB's caches and is not counted.
    if (run === 0) continue;
    read.push(readMs);
    tpfc.push(tpfcMs);
  }
  for (let run = 0; run < Math.min(3, runs); run++) {
    const t = performance.now();
    await store.bucketColumns({ series, start, end, bucket: { widthMs: 15 * 60_000 }, aggregator: 'delta' });
    quarter.push(performance.now() - t);
  }
  // The quarter-hour tariff: now and before, each with the hourly TPFC run right before it.
  const quarterInput = exampleTariff('2020-01-01');
  quarterInput.name = '一刻钟';
  quarterInput.version = exampleVersion('2020-01-01', { seasons: quarterSeasons() });
  const quarterQuery = { ...query, tariffId: (await service.create(quarterInput)).tariff.id };
  const timed = async (f: () => Promise<{ rows: { total: { totalCost: number } }[] }>) => {
    const t = performance.now();
    const answer = await f();
    return { ms: performance.now() - t, cost: answer.rows.reduce((s, r) => s + r.total.totalCost, 0) };
  };
  const hourlyNow: number[] = [];
  const quarterNow: number[] = [];
  const hourlyBefore: number[] = [];
  const quarterBefore: number[] = [];
  const costs = new Set<string>();
  for (let run = 0; run < runs + 1; run++) {
    const h1 = await timed(() => service.tpfc(query));
    const q1 = await timed(() => service.tpfc(quarterQuery));
    const h2 = await timed(() => service.tpfc(query));
    const q2 = await timed(() => wholeSlots.tpfc(quarterQuery));
    costs.add(fmt(q1.cost, 2)).add(fmt(q2.cost, 2));
    if (run === 0) continue;
    hourlyNow.push(h1.ms);
    quarterNow.push(q1.ms);
    hourlyBefore.push(h2.ms);
    quarterBefore.push(q2.ms);
  }
  log(`cost of the month over ${thingCount} meters: ${fmt(total, 2)}`);
  log(`baseline, hourly counter read alone: median ${fmt(median(read), 1)} ms over ${runs} runs`);
  log(
    `for reference, the 15-minute counter read: median ${fmt(median(quarter), 1)} ms over ${quarter.length} runs`,
  );
  log(
    `TPFC by day, one row per meter: median ${fmt(median(tpfc), 1)} ms, ` +
      `${(median(tpfc) / median(read)).toFixed(2)}× the read alone; target ≤ 200 ms`,
  );
  log(
    `quarter-hour tariff, cost of the month: ${[...costs].join(' / ')} (now / before: one value when equal)`,
  );
  log(
    `quarter-hour TPFC now (hour rows + cut hours): median ${fmt(median(quarterNow), 1)} ms, ` +
      `${(median(quarterNow) / median(hourlyNow)).toFixed(2)}× the hourly TPFC beside it (${fmt(median(hourlyNow), 1)} ms)`,
  );
  log(
    `quarter-hour TPFC before (minute rows all month): median ${fmt(median(quarterBefore), 1)} ms, ` +
      `${(median(quarterBefore) / median(hourlyBefore)).toFixed(2)}× the hourly TPFC beside it (${fmt(median(hourlyBefore), 1)} ms)`,
  );
} finally {
  await close();
}
