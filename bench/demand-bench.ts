/**
 * The bill's maximum demand (POST /api/tariffs/bill, docs/tariffs.md "Maximum demand") of a region
 * of meters over one past month, through the tariff service as the route calls it: the bill with
 * fixed windows and with sliding ones (the demand read is every meter's raw readings, interpolated at
 * each minute edge), and, in the same run, the read the bill made before for its demand: every
 * meter's 15-minute consumption over the month (`bucketColumns`), which the energy lines no longer
 * need either.
 *
 *   npx tsx bench/demand-bench.ts [--things 200] [--interval 60] [--runs 5]
 */
import { PlantCalendar, type Thing } from '@kilowatch/contract';
import { createTariffService } from '../server/src/modules/energy/index.ts';
import { exampleTariff, exampleVersion } from '../server/src/modules/energy/tariffs/testing.ts';
import type { BucketQuery, Point, TelemetryStore } from '../server/src/telemetry/index.ts';
import { DAY, fmt, loadAverage, log, machine, median, numArg, SECOND, TIME_ZONE } from './harness.ts';
import { openStoreAndDatabase } from './kwh-meters.ts';

const thingCount = numArg('things', 200);
const interval = numArg('interval', 60) * SECOND;
const runs = numArg('runs', 5);

const { store, database, close } = await openStoreAndDatabase('demand-bench');

/**
 * The store as the bill sees it, each read's process CPU added up by method, bucket width and
 * aggregator (the bill awaits its reads one at a time, so the process's CPU over one is its own).
 */
function readsOf(inner: TelemetryStore) {
  const cpu = new Map<string, number>();
  const timed =
    <A extends unknown[], R>(
      name: string,
      f: (...args: A) => Promise<R>,
      kind: (...args: NoInfer<A>) => string = () => '',
    ) =>
    async (...args: A): Promise<R> => {
      const u = process.cpuUsage();
      const out = await f(...args);
      const c = process.cpuUsage(u);
      const key = `${name}${kind(...args)}`;
      cpu.set(key, (cpu.get(key) ?? 0) + (c.user + c.system) / 1000);
      return out;
    };
  const store: TelemetryStore = Object.create(inner);
  store.bucketColumns = timed(
    'bucketColumns',
    (q: BucketQuery) => inner.bucketColumns(q),
    (q) => {
      const width = 'widthMs' in q.bucket ? `${q.bucket.widthMs / 60_000} min` : q.bucket.calendar;
      return ` ${width} ${q.aggregator}`;
    },
  );
  const summed = inner.summedRegister?.bind(inner);
  if (summed) store.summedRegister = timed('summedRegister', summed);
  store.pointColumns = timed('pointColumns', inner.pointColumns.bind(inner));
  return { store, cpu };
}
try {
  log(machine());
  const calendar = new PlantCalendar(TIME_ZONE);
  // A whole past month inside the raw retention: the one 35 days ago.
  const { start, end } = calendar.periodRange('month', Date.now() - 35 * DAY);
  const month = calendar.format(start, 'YYYY-MM');

  const things = Array.from({ length: thingCount }, (_, i) => ({ id: i + 1, name: `电表${i + 1}` }) as Thing);
  let batch: Point[] = [];
  let count = 0;
  for (const thing of things) {
    let value = 1000 * thing.id;
    for (let ts = start - interval; ts < end + interval; ts += interval) {
      // 20–80 kW with a daily shape, and each meter's own short peak once a day.
      const hour = ((ts - start) / 3_600_000) % 24;
      const peak = Math.abs(hour - 9 - (thing.id % 7)) < 0.2 ? 40 : 0;
      value += ((20 + peak + 60 * Math.max(0, Math.sin((Math.PI * (hour - 6)) / 14))) * interval) / 3_600_000;
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
  log(`${fmt(count)} counter points: ${thingCount} meters over ${month}, every ${interval / SECOND} s`);

  const abilities = new Map(things.map((t) => [t.id, [{ identifier: 'EP', cumulative: true }]]));
  const reads = readsOf(store);
  const service = createTariffService({
    db: database.db,
    catalog: { select: async () => ({ name: '全厂', things, abilities }) } as never,
    store: reads.store,
    calendar,
    rawRetentionDays: 90,
    now: Date.now,
  });
  const billOf = async (window: 'fixed' | 'sliding') => {
    const input = exampleTariff('2020-01-01');
    input.name = window;
    input.version = exampleVersion('2020-01-01', { demand: { kind: 'demand', pricePerKw: 40, window } });
    const { tariff } = await service.create(input);
    return () => service.bill({ tariffId: tariff.id, resourceType: 'region', resourceId: 1, month });
  };
  const fixed = await billOf('fixed');
  const sliding = await billOf('sliding');
  const series = things.map((t) => ({ thingId: t.id, metric: 'EP' }));
  /** Wall time, and CPU time of the process (DuckDB's threads included), which load inflates less. */
  const timed = async <T>(f: () => Promise<T>) => {
    const t = performance.now();
    const u = process.cpuUsage();
    const value = await f();
    const cpu = process.cpuUsage(u);
    return { ms: performance.now() - t, cpu: (cpu.user + cpu.system) / 1000, value };
  };

  const times = { before: [] as number[], fixed: [] as number[], sliding: [] as number[] };
  const cpu = { before: [] as number[], fixed: [] as number[], sliding: [] as number[] };
  const answers = new Set<string>();
  for (let run = 0; run < runs + 1; run++) {
    const before = await timed(() =>
      store.bucketColumns({ series, start, end, bucket: { widthMs: 15 * 60_000 }, aggregator: 'delta' }),
    );
    const f = await timed(fixed);
    const s = await timed(sliding);
    answers.add(
      `fixed ${fmt(f.value.demand.quantity, 2)} kW at ${calendar.format(f.value.demand.at ?? 0, 'MM-DD HH:mm')}, ` +
        `sliding ${fmt(s.value.demand.quantity, 2)} kW at ${calendar.format(s.value.demand.at ?? 0, 'MM-DD HH:mm')}`,
    );
    // The first run warms the JIT and DuckDB's caches and is not counted.
    if (run === 0) {
      reads.cpu.clear();
      continue;
    }
    times.before.push(before.ms);
    times.fixed.push(f.ms);
    times.sliding.push(s.ms);
    cpu.before.push(before.cpu);
    cpu.fixed.push(f.cpu);
    cpu.sliding.push(s.cpu);
  }
  log(`answers: ${[...answers].join(' | ')}`);
  const both = (k: keyof typeof times) =>
    `median ${fmt(median(times[k]), 1)} ms, CPU ${fmt(median(cpu[k]), 1)} ms over ${runs} runs`;
  log(`before, the 15-minute read the bill's demand made: ${both('before')}`);
  log(`bill, fixed windows: ${both('fixed')}`);
  log(`bill, sliding windows: ${both('sliding')}`);
  // What the two bills of a run read, by kind (the coverage's counts came with issue 21, after issue 19).
  for (const [kind, ms] of reads.cpu)
    log(`  the bills' reads, ${kind}: CPU ${fmt(ms / runs / 2, 1)} ms a bill`);
  log(`load average ${loadAverage()}`);
} finally {
  await close();
}
