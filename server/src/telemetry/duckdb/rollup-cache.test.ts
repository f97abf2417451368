import { DAY, HOUR } from '@kilowatch/contract/calendar';
import { afterEach, describe, expect, it } from 'vitest';
import { dataset, HOUR_AND_WIDER, interleave, random } from '../conformance/reference.ts';
import type { BucketAggregator, BucketQuery, BucketSpec, Point, SeriesKey } from '../store.ts';
import { ROW_BYTES, RollupCache, rowsOf } from './rollup-cache.ts';
import { HOURS, RollupRows } from './rollup-rows.ts';
import { type DuckDBStoreOptions, DuckDBTelemetryStore } from './store.ts';

const T0 = Date.UTC(2024, 2, 8); // spans the New York DST change of 2024-03-10
const AGGREGATORS: BucketAggregator[] = ['avg', 'sum', 'max', 'min', 'count', 'first', 'last', 'delta'];
const open: DuckDBTelemetryStore[] = [];

afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

/** The same store twice: hour and day rows from memory (the default budget or `bytes`) and from SQL only. */
async function pair(
  options: Partial<DuckDBStoreOptions> & { timeZone: string; now: () => number },
  bytes?: number,
): Promise<{ cached: DuckDBTelemetryStore; sql: DuckDBTelemetryStore }> {
  const base = {
    dataDir: ':memory:',
    retention: { rawDays: 90, minuteDays: 400, hourDays: 1830 },
    ...options,
  };
  const cached = await DuckDBTelemetryStore.open({
    ...base,
    ...(bytes === undefined ? {} : { rollupCacheBytes: bytes }),
  });
  const sql = await DuckDBTelemetryStore.open({ ...base, rollupCacheBytes: 0 });
  open.push(cached, sql);
  return { cached, sql };
}

/** Random hour- and day-wide queries over [T0, until): the ranges start anywhere in it. */
function queries(rnd: () => number, keys: SeriesKey[], until: number, count: number): BucketQuery[] {
  return Array.from({ length: count }, () => {
    const bucket = HOUR_AND_WIDER[Math.floor(rnd() * HOUR_AND_WIDER.length)] as BucketSpec;
    const start = T0 + Math.floor(rnd() * ((until - T0) / HOUR)) * HOUR;
    const end = Math.min(until + DAY, start + HOUR + Math.floor(rnd() * 3 * DAY));
    const aggregator = AGGREGATORS[Math.floor(rnd() * AGGREGATORS.length)] as BucketAggregator;
    const series = keys.filter(() => rnd() < 0.7);
    return { series: series.length > 0 ? series : keys, start, end, bucket, aggregator };
  });
}

/** Both stores answer each query alike: buckets, values, counts and completeness. */
async function expectAlike(
  stores: { cached: DuckDBTelemetryStore; sql: DuckDBTelemetryStore },
  qs: BucketQuery[],
) {
  for (const q of qs) {
    const [a, b] = await Promise.all([stores.cached.bucketColumns(q), stores.sql.bucketColumns(q)]);
    const label = `${q.aggregator} ${JSON.stringify(q.bucket)} ${new Date(q.start).toISOString()}…${new Date(q.end).toISOString()}`;
    expect(a.resolution, label).toBe(b.resolution);
    expect(a.starts, label).toEqual(b.starts);
    expect(a.values, label).toEqual(b.values);
    expect(a.counts, label).toEqual(b.counts);
    expect(a.complete, label).toEqual(b.complete);
  }
}

/** Writes the points to both stores in the same calls. */
const writeBoth = (stores: { cached: DuckDBTelemetryStore; sql: DuckDBTelemetryStore }, points: Point[]) =>
  Promise.all([stores.cached.write(points), stores.sql.write(points)]);

describe('hour and day rows from memory', () => {
  it.each([
    ['Asia/Shanghai', 21],
    ['America/New_York', 22],
    ['Asia/Kolkata', 23],
  ])(
    'answer as SQL does between in-order, late, resent and history writes (%s, seed %s)',
    async (timeZone, seed) => {
      const now = T0 + 4 * DAY;
      const stores = await pair({ timeZone, now: () => now });
      const series = dataset(seed, T0, 4, { minStepMs: 5000, spreadMs: 40_000 });
      const keys = series.map(({ thingId, metric }) => ({ thingId, metric }));
      const points = interleave(series);
      const rnd = random(seed);
      // The first six hours are history written last, below every series' first point.
      const history = points.filter((p) => p.ts < T0 + 6 * HOUR);
      const live = points.filter((p) => p.ts >= T0 + 6 * HOUR);
      let written = 0;
      while (written < live.length) {
        const n = 1 + Math.floor(rnd() * 3000);
        const chunk = live.slice(written, written + n);
        written += chunk.length;
        const r = rnd();
        if (r < 0.1 && written > 6000) {
          // Late: a stretch from the past written again, shifted off the stored times by a ms.
          const at = Math.floor(rnd() * (written - 5000));
          const late = live.slice(at, at + 200).map((p) => ({ ...p, ts: p.ts + 1, value: p.value + 0.5 }));
          await writeBoth(stores, [...chunk, ...late]);
        } else if (r < 0.15) {
          // Resent points: replace the stored ones.
          await writeBoth(stores, [...chunk, ...live.slice(Math.max(0, written - 4000), written - 3000)]);
        } else {
          await writeBoth(stores, chunk);
        }
        const until = (chunk[chunk.length - 1] as Point).ts;
        await expectAlike(stores, queries(rnd, keys, until, 3));
      }
      await writeBoth(stores, history.reverse());
      await expectAlike(stores, queries(rnd, keys, now, 40));
      expect(await stores.cached.checkRollups()).toEqual({ minute: 0, hour: 0, day: 0 });
    },
    120_000,
  );

  it('answer as SQL does while reads and writes of the same series run at once', async () => {
    const now = T0 + 3 * DAY;
    const stores = await pair({ timeZone: 'Asia/Shanghai', now: () => now });
    const series = dataset(31, T0, 3, { minStepMs: 5000, spreadMs: 40_000 });
    const keys = series.map(({ thingId, metric }) => ({ thingId, metric }));
    const points = interleave(series);
    const rnd = random(31);
    const step = Math.ceil(points.length / 60);
    for (let i = 0; i < points.length; i += step) {
      const chunk = points.slice(i, i + step);
      // Every other round also rewrites an earlier stretch (its rows recomputed in SQL).
      const late =
        i > 0 && rnd() < 0.5
          ? points.slice(i - step, i - step + 100).map((p) => ({ ...p, value: p.value + 1 }))
          : [];
      const until = (chunk[chunk.length - 1] as Point).ts;
      const reads = queries(rnd, keys, until, 4);
      // The cached store reads while it commits; the SQL store is written in the same calls (the
      // same commits: a series' interval estimate, and so `complete`, follows them) and read after.
      await Promise.all([
        stores.cached.write(chunk),
        ...(late.length > 0 ? [stores.cached.write(late)] : []),
        ...reads.map((q) => stores.cached.bucketColumns(q)),
      ]);
      await Promise.all([stores.sql.write(chunk), ...(late.length > 0 ? [stores.sql.write(late)] : [])]);
      await expectAlike(stores, reads);
    }
  }, 120_000);

  it('forget hour rows retention deleted', async () => {
    let now = T0;
    const stores = await pair({
      timeZone: 'UTC',
      now: () => now,
      retention: { rawDays: 1, minuteDays: 2, hourDays: 3 },
    });
    const series = dataset(41, T0, 5, { minStepMs: 20_000, spreadMs: 40_000 });
    const keys = series.map(({ thingId, metric }) => ({ thingId, metric }));
    const points = interleave(series);
    for (let h = 0; h < 5 * 24; h++) {
      now = T0 + (h + 1) * HOUR;
      await writeBoth(
        stores,
        points.filter((p) => p.ts >= T0 + h * HOUR && p.ts < now),
      );
    }
    const all: BucketQuery = {
      series: keys,
      start: T0,
      end: T0 + 5 * DAY,
      bucket: { widthMs: HOUR },
      aggregator: 'sum',
    };
    await expectAlike(stores, [all]);
    for (const s of [stores.cached, stores.sql]) await s.applyRetention(now);
    const after = await stores.cached.bucketColumns(all);
    expect(after.counts.slice(0, 24).every((c) => c === 0)).toBe(true);
    await expectAlike(stores, [all]);
  }, 120_000);

  it('downsample as SQL does, between in-order and late writes', async () => {
    const now = T0 + 3 * DAY;
    const stores = await pair({ timeZone: 'Asia/Shanghai', now: () => now });
    const key = { thingId: 9, metric: 'p' };
    // Distinct values (7919 is prime to 100,003): the extremes' times do not depend on who breaks a tie.
    const points = Array.from({ length: Math.floor((3 * DAY) / 7000) }, (_, i) => ({
      ...key,
      ts: T0 + i * 7000,
      value: (i * 7919) % 100_003,
    }));
    const rnd = random(61);
    const step = Math.ceil(points.length / 30);
    for (let i = 0; i < points.length; i += step) {
      await writeBoth(stores, points.slice(i, i + step));
      if (i > 0 && rnd() < 0.3) {
        const at = Math.floor(rnd() * i);
        await writeBoth(stores, [{ ...key, ts: T0 + at * 7000 + 3, value: 100_003 + i }]);
      }
      for (let k = 0; k < 3; k++) {
        const start = T0 + Math.floor(rnd() * 48) * HOUR + Math.floor(rnd() * HOUR);
        const end = start + HOUR + Math.floor(rnd() * 2 * DAY);
        const maxPoints = 20 + Math.floor(rnd() * 100);
        const [a, b] = await Promise.all([
          stores.cached.downsample(key, start, end, maxPoints),
          stores.sql.downsample(key, start, end, maxPoints),
        ]);
        expect(
          a,
          `${new Date(start).toISOString()} … ${new Date(end).toISOString()} in ${maxPoints}`,
        ).toEqual(b);
      }
    }
  }, 120_000);

  it('answer alike from a budget that holds a few series, and keep within it', async () => {
    const now = T0 + 3 * DAY;
    const budget = 40 * 1024;
    const stores = await pair({ timeZone: 'Asia/Kolkata', now: () => now }, budget);
    const series = dataset(51, T0, 3, { minStepMs: 5000, spreadMs: 40_000 });
    const keys = series.map(({ thingId, metric }) => ({ thingId, metric }));
    await writeBoth(stores, interleave(series));
    const rnd = random(51);
    await expectAlike(stores, queries(rnd, keys, now, 60));
    const held = (stores.cached as unknown as { rollups: { size(): number } }).rollups.size();
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThanOrEqual(budget);
  }, 120_000);
});

describe('RollupCache', () => {
  const rows = (...buckets: number[]) => {
    const columns = Array.from({ length: 14 }, (_, k) =>
      Float64Array.from(buckets, (b) => (k === 0 ? b : 1)),
    );
    return rowsOf(columns, 0, buckets.length);
  };
  const commitRows = (id: number, ...buckets: number[]) => {
    const out = new RollupRows(buckets.length, HOURS);
    for (const b of buckets) {
      out.begin(id, null);
      out.add([b + 1], [7], 0, 1);
    }
    return out;
  };

  it('brings what a read fetched up to date with the commits since, and keeps none a commit recomputed in SQL', () => {
    const cache = new RollupCache(1 << 20);
    const readAt = cache.startRead();
    cache.committed(commitRows(4, HOUR, 2 * HOUR), null, [3]);
    // Fetched before the commit (hours 0 and 1) or after it (0, 1, 2): the same rows kept.
    expect(Array.from(cache.install('hour', 4, 0, rows(0, HOUR), readAt).bucket.subarray(0, 3))).toEqual([
      0,
      HOUR,
      2 * HOUR,
    ]);
    const held = cache.get('hour', 4, 0);
    expect([held?.length, held?.sum[1], held?.sum[2]]).toEqual([3, 7, 7]);
    expect(cache.install('hour', 5, 0, rows(0, HOUR, 2 * HOUR), readAt).length).toBe(3);
    // Series 3's rows were recomputed in SQL after the read started: not kept.
    cache.install('hour', 3, 0, rows(0), readAt);
    expect(cache.get('hour', 3, 0)).toBeUndefined();
    cache.endRead(readAt);
    // Nor from before retention cleared the level.
    const before = cache.startRead();
    cache.clear('hour');
    cache.install('hour', 6, 0, rows(0, HOUR), before);
    cache.endRead(before);
    expect(cache.get('hour', 6, 0)).toBeUndefined();
  });

  it('goes on with the rows of in-order commits, and drops a series whose rows land between held ones', () => {
    const cache = new RollupCache(1 << 20);
    const at = cache.startRead();
    cache.install('hour', 1, 0, rows(0, HOUR), at);
    cache.install('hour', 2, 0, rows(0, 2 * HOUR), at);
    cache.endRead(at);
    cache.committed(commitRows(1, HOUR, 2 * HOUR), null, []);
    cache.committed(commitRows(2, HOUR), null, []);
    const one = cache.get('hour', 1, 0);
    expect(Array.from(one?.bucket.subarray(0, one.length) ?? [])).toEqual([0, HOUR, 2 * HOUR]);
    expect(one?.sum[1]).toBe(7);
    expect(cache.get('hour', 2, 0)).toBeUndefined();
    // Rows asked from before an entry's start are not there.
    expect(cache.get('hour', 1, -HOUR)).toBeUndefined();
  });

  it('drops the least recently read entries past its budget, and keeps none above a quarter of it', () => {
    const cache = new RollupCache(4 * 2 * ROW_BYTES);
    for (const id of [1, 2, 3, 4]) cache.install('day', id, 0, rows(0, 1), 0);
    cache.get('day', 1, 0);
    cache.install('day', 5, 0, rows(0, 1), 0);
    expect(cache.get('day', 2, 0)).toBeUndefined();
    for (const id of [1, 3, 4, 5]) expect(cache.get('day', id, 0)).toBeDefined();
    expect(cache.size()).toBe(4 * 2 * ROW_BYTES);
    cache.install('day', 6, 0, rows(0, 1, 2), 0);
    expect(cache.get('day', 6, 0)).toBeUndefined();
  });
});
