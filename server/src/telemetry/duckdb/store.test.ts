import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { DAY, HOUR, MINUTE } from '@kilowatch/contract/calendar';
import { afterEach, describe, expect, it } from 'vitest';
import { bucketWidthFor } from '../buckets.ts';
import {
  brute,
  dataset,
  HOUR_AND_WIDER,
  interleave,
  nextStart,
  random,
  writeShuffled,
} from '../conformance/reference.ts';
import { counterIncrement } from '../counter.ts';
import { DuckDBTelemetryStore, openTelemetryStore, type Resolution } from '../index.ts';
import {
  type Bucket,
  type BucketAggregator,
  type BucketSpec,
  bucketsOf,
  type Point,
  type SeriesKey,
} from '../store.ts';

const RETENTION = { rawDays: 90, minuteDays: 400, hourDays: 1830 };
const AGGREGATORS: BucketAggregator[] = ['avg', 'sum', 'max', 'min', 'count', 'first', 'last', 'delta'];
const T0 = Date.UTC(2024, 2, 8); // spans the New York DST change of 2024-03-10
const floorHour = (t: number) => t - (t % HOUR);
const open: DuckDBTelemetryStore[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function memoryStore(timeZone = 'UTC', now = () => T0 + 30 * DAY): Promise<DuckDBTelemetryStore> {
  const s = await openTelemetryStore({ dataDir: ':memory:', timeZone, retention: RETENTION, now });
  open.push(s);
  return s;
}

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'kw-telemetry-'));
  dirs.push(d);
  return d;
}

/** What `sql` reads from a closed store's folder, each value a number. */
async function storedRows(dir: string, sql: string): Promise<number[][]> {
  const instance = await DuckDBInstance.create(join(dir, 'telemetry.duckdb'), { threads: '1' });
  const c = await instance.connect();
  try {
    return (await c.runAndReadAll(sql)).getRows().map((r) => r.map(Number));
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}

/** The rows of each rollup table of a closed store's folder, by series and bucket. */
async function rollupTables(dir: string, names: readonly string[]): Promise<Record<string, number[][]>> {
  const out: Record<string, number[][]> = {};
  for (const t of names) out[t] = await storedRows(dir, `SELECT * FROM ${t} ORDER BY series_id, bucket`);
  return out;
}

const resolutionsFor: Record<string, Resolution[]> = {
  '60000': ['raw', 'minute'],
  '300000': ['raw', 'minute'],
  '3600000': ['raw', 'minute', 'hour'],
  '7200000': ['raw', 'minute', 'hour'],
  '21600000': ['raw', 'minute', 'hour'],
};

// Raw buckets of stored points are aggregated in JS (the default) or, past a size, by DuckDB's SQL:
// the fourth case sends every one to SQL, so both answer the same data. With a minute horizon
// (minutes.ts) in the data, minute rows are stored below it and made from raw points above it:
// reads across it must answer the same (retention keeps the raw points below it for one more run).
describe.each([
  ['Asia/Shanghai', 11, undefined, null],
  ['America/New_York', 12, undefined, null],
  ['Asia/Kolkata', 13, undefined, null],
  ['Asia/Shanghai', 11, 0, null],
  ['Asia/Shanghai', 14, undefined, T0 + DAY + 7 * HOUR],
  ['Asia/Kolkata', 15, 0, T0 + DAY + 7 * HOUR],
])(
  'rollups answer exactly like raw points and brute force (%s, seed %s, raw rows in JS up to %s, minute horizon %s)',
  (timeZone, seed, rawRowsInJs, horizon) => {
    it('for every aggregator and resolution', async () => {
      const now = T0 + 3 * DAY + 5 * HOUR;
      const store = await DuckDBTelemetryStore.open({
        dataDir: ':memory:',
        timeZone,
        retention: RETENTION,
        now: () => now,
        ...(rawRowsInJs === undefined ? {} : { rawRowsInJs }),
      });
      open.push(store);
      const series = dataset(seed, T0, 3, { minStepMs: 1000, spreadMs: 19_000 });
      await writeShuffled(store, interleave(series), seed);
      expect(await store.checkRollups()).toEqual({ minute: 0, hour: 0, day: 0 });
      if (horizon !== null) {
        await store.applyRetention(horizon + RETENTION.rawDays * DAY + 30 * MINUTE);
        expect(await store.checkRollups()).toEqual({ minute: 0, hour: 0, day: 0 });
      }

      const rnd = random(seed + 100);
      const specs: BucketSpec[] = [{ widthMs: MINUTE }, { widthMs: 5 * MINUTE }, ...HOUR_AND_WIDER];
      for (const bucket of specs) {
        const short = 'widthMs' in bucket && bucket.widthMs < HOUR;
        const start = T0 + Math.floor(rnd() * (short ? 2 : 1) * DAY);
        const end = short ? start + 6 * HOUR + Math.floor(rnd() * HOUR) : T0 + 3 * DAY + 5 * HOUR;
        const keys = series.map(({ thingId, metric }) => ({ thingId, metric }));
        for (const aggregator of AGGREGATORS) {
          const query = { series: keys, start, end, bucket, aggregator };
          const auto = await store.buckets(query);
          const ats = 'widthMs' in bucket ? resolutionsFor[String(bucket.widthMs)] : undefined;
          if (ats) {
            const expected = timeZone === 'Asia/Kolkata' ? ats.filter((a) => a !== 'hour') : ats;
            const coarsest = expected[expected.length - 1];
            // Minute widths above the horizon read raw points.
            expect(auto.resolution).toBe(coarsest === 'minute' && start >= (horizon ?? 0) ? 'raw' : coarsest);
            for (const at of expected) {
              const other = await store.bucketsAt(query, at);
              expect(other.buckets, `${aggregator} ${JSON.stringify(bucket)} at ${at}`).toEqual(auto.buckets);
            }
          } else {
            expect(auto.resolution).toBe('day');
          }
          expect(auto.buckets.length % keys.length).toBe(0);
          const perSeries = auto.buckets.length / keys.length;
          for (const [k, s] of series.entries()) {
            const info = store.describe(s) as { firstTs: number; gapToleranceMs: number };
            for (let i = 0; i < perSeries; i++) {
              const b = auto.buckets[k * perSeries + i] as Bucket;
              const next = auto.buckets[k * perSeries + i + 1];
              const be = i + 1 < perSeries && next ? next.start : nextStart(store.calendar, bucket, b.start);
              expect(
                { value: b.value, count: b.count, complete: b.complete },
                `${s.metric} ${aggregator} ${JSON.stringify(bucket)} #${i}`,
              ).toEqual(brute(s.pts, b.start, be, aggregator, info, now));
            }
          }
        }
      }
    });
  },
);

describe('bucket layout', () => {
  const key = { thingId: 7, metric: 'p' };

  it('[start, end): a point exactly at a bucket start belongs to that bucket', async () => {
    const store = await memoryStore();
    const h = T0 + 10 * HOUR;
    await store.write([
      { ...key, ts: h - 1, value: 1 },
      { ...key, ts: h, value: 2 },
      { ...key, ts: h + HOUR - 1, value: 4 },
      { ...key, ts: h + HOUR, value: 8 },
    ]);
    for (const at of ['raw', 'minute', 'hour'] as const) {
      const r = await store.bucketsAt(
        { series: [key], start: h, end: h + HOUR, bucket: { widthMs: HOUR }, aggregator: 'sum' },
        at,
      );
      expect(r.buckets.map((b) => [b.start, b.value, b.count])).toEqual([[h, 6, 2]]);
    }
    const min = await store.points(key, h, h + HOUR, 10);
    expect(min.map((p) => p.value)).toEqual([2, 4]);
  });

  it('buckets are whole grid buckets anchored at local midnight; empty ones are listed with null', async () => {
    const store = await memoryStore('Asia/Shanghai');
    await store.write([{ ...key, ts: T0 + 2 * HOUR + 5 * MINUTE, value: 3 }]);
    const r = await store.buckets({
      series: [key],
      start: T0 + 17 * MINUTE, // 08:17 local
      end: T0 + 3 * HOUR,
      bucket: { widthMs: HOUR },
      aggregator: 'max',
    });
    expect(r.resolution).toBe('hour');
    expect(r.buckets.map((b) => [b.start, b.value])).toEqual([
      [T0, null],
      [T0 + HOUR, null],
      [T0 + 2 * HOUR, 3],
    ]);
    expect(r.buckets.every((b) => !b.complete)).toBe(true);
  });

  it('day buckets start at local midnight (Asia/Shanghai) and DST days have their own length', async () => {
    const sh = await memoryStore('Asia/Shanghai');
    await sh.write([
      { ...key, ts: Date.UTC(2024, 2, 8, 15, 59), value: 1 }, // 23:59 local, Mar 8
      { ...key, ts: Date.UTC(2024, 2, 8, 16, 0), value: 2 }, // 00:00 local, Mar 9
    ]);
    const r = await sh.buckets({
      series: [key],
      start: Date.UTC(2024, 2, 7, 16),
      end: Date.UTC(2024, 2, 9, 16),
      bucket: { widthMs: DAY },
      aggregator: 'sum',
    });
    expect(r.buckets.map((b) => [b.start, b.value])).toEqual([
      [Date.UTC(2024, 2, 7, 16), 1],
      [Date.UTC(2024, 2, 8, 16), 2],
    ]);

    const ny = await memoryStore('America/New_York');
    const pts: Point[] = [];
    for (let t = Date.UTC(2024, 2, 9, 5); t < Date.UTC(2024, 2, 12, 4); t += 10 * MINUTE)
      pts.push({ ...key, ts: t, value: 1 });
    await ny.write(pts);
    const days = await ny.buckets({
      series: [key],
      start: Date.UTC(2024, 2, 9, 5),
      end: Date.UTC(2024, 2, 12, 4),
      bucket: { widthMs: DAY },
      aggregator: 'count',
    });
    expect(days.buckets.map((b) => [b.start, b.value])).toEqual([
      [Date.UTC(2024, 2, 9, 5), 144],
      [Date.UTC(2024, 2, 10, 5), 138], // 23 hours
      [Date.UTC(2024, 2, 11, 4), 144],
    ]);
  });

  it('calendar months and years in the plant zone', async () => {
    const store = await memoryStore('Asia/Shanghai', () => Date.UTC(2024, 5, 1));
    await store.write([
      { ...key, ts: Date.UTC(2024, 2, 31, 15, 59), value: 100 }, // Mar 31 23:59 local
      { ...key, ts: Date.UTC(2024, 2, 31, 16, 0), value: 130 }, // Apr 1 00:00 local
      { ...key, ts: Date.UTC(2024, 3, 20), value: 160 },
      { ...key, ts: Date.UTC(2024, 4, 2), value: 10 }, // reset
    ]);
    const months = await store.buckets({
      series: [key],
      start: Date.UTC(2024, 1, 29, 16),
      end: Date.UTC(2024, 4, 31, 16),
      bucket: { calendar: 'month' },
      aggregator: 'delta',
    });
    expect(months.resolution).toBe('day');
    // The reading at Apr 1 00:00 closes March (interval-ending): +30 in March, not in April.
    expect(months.buckets.map((b) => [b.start, b.value])).toEqual([
      [Date.UTC(2024, 1, 29, 16), 30],
      [Date.UTC(2024, 2, 31, 16), 30],
      [Date.UTC(2024, 3, 30, 16), 10],
    ]);
    const years = await store.buckets({
      series: [key],
      start: Date.UTC(2024, 1, 1),
      end: Date.UTC(2024, 4, 5),
      bucket: { calendar: 'year' },
      aggregator: 'max',
    });
    expect(years.buckets.map((b) => [b.start, b.value])).toEqual([[Date.UTC(2023, 11, 31, 16), 160]]);
  });

  it('refuses a resolution that does not tile the buckets, and absurd bucket counts', async () => {
    const store = await memoryStore();
    const q = {
      series: [key],
      start: T0,
      end: T0 + DAY,
      bucket: { widthMs: 90 * 1000 },
      aggregator: 'avg' as const,
    };
    expect((await store.buckets(q)).resolution).toBe('raw');
    await expect(store.bucketsAt(q, 'minute')).rejects.toThrow(RangeError);
    await expect(store.buckets({ ...q, end: T0 + 400 * DAY, bucket: { widthMs: 1 } })).rejects.toThrow(
      /buckets/,
    );
  });
});

describe('counters, late points and gaps', () => {
  const key = { thingId: 3, metric: 'kwh' };

  it('gaps, running buckets and buckets before the first sample are incomplete', async () => {
    let now = T0 + 2 * HOUR + 25 * MINUTE;
    const store = await memoryStore('UTC', () => now);
    const pts: Point[] = [];
    for (let t = T0 + 30 * MINUTE; t < now; t += 10_000) {
      if (t >= T0 + HOUR + 20 * MINUTE && t < T0 + HOUR + 22 * MINUTE) continue; // a 2-minute gap
      pts.push({ ...key, ts: t, value: 1 });
    }
    await store.write(pts);
    expect(store.describe(key)?.gapToleranceMs).toBe(60_000);
    const q = {
      series: [key],
      start: T0,
      end: T0 + 3 * HOUR,
      bucket: { widthMs: 30 * MINUTE },
      aggregator: 'count' as const,
    };
    for (const at of ['raw', 'minute'] as const) {
      // Before the first sample, complete, the 2-min gap, complete, running (past now), future.
      expect((await store.bucketsAt(q, at)).buckets.map((b) => b.complete)).toEqual([
        false,
        true,
        false,
        true,
        false,
        false,
      ]);
    }
    now = T0 + 3 * HOUR + 10 * MINUTE;
    // Over: but the last sample (02:24:50) is more than 60 s before the bucket end.
    expect((await store.buckets(q)).buckets[4]?.complete).toBe(false);
    await store.write([{ ...key, ts: T0 + 2 * HOUR + 29 * MINUTE, value: 1 }]); // a late point after a 4-min gap
    expect((await store.buckets(q)).buckets[4]?.complete).toBe(false);
    const fill: Point[] = [];
    for (let t = T0 + 2 * HOUR + 25 * MINUTE; t < T0 + 2 * HOUR + 30 * MINUTE; t += 10_000)
      fill.push({ ...key, ts: t, value: 1 });
    await store.write(fill);
    expect((await store.buckets(q)).buckets[4]?.complete).toBe(true);
  });
});

describe('buckets as columns', () => {
  it('a day with a counter reset: its day row gives the counter rule over the raw points closing in it', async () => {
    const store = await memoryStore('Asia/Shanghai', () => T0 + 3 * DAY);
    const b = { thingId: 2, metric: 'kwh' };
    const pts: Point[] = [];
    for (let t = T0; t < T0 + 2 * DAY; t += 30_000) {
      // A reset mid-morning of the first day, inside an hour and inside a day.
      pts.push({
        ...b,
        ts: t,
        value: t < T0 + 9 * HOUR + 17 * MINUTE ? 5_000 + (t - T0) / 30_000 : (t - T0) / 60_000 - 500,
      });
    }
    await store.write(pts);
    // Consumption of the local day with the reset, from its day rows, equals the counter rule over
    // the raw points that close in it, (start, end] (the reset counts what the meter counted since
    // it restarted).
    const resetDay = store.calendar.startOfDay(T0 + 10 * HOUR);
    const dayQuery = {
      series: [b],
      start: resetDay,
      end: resetDay + DAY,
      bucket: { widthMs: DAY },
      aggregator: 'delta' as const,
    };
    const day = await store.bucketColumns(dayQuery);
    expect(day.resolution).toBe('day');
    expect(bucketsOf(day)).toEqual(await store.buckets(dayQuery));
    const raw = await store.points(b, (day.starts[0] as number) + 1, (day.starts[1] as number) + 1, 10_000);
    const before = await store.points(
      b,
      (day.starts[0] as number) - MINUTE,
      (day.starts[0] as number) + 1,
      10,
    );
    let expected = 0;
    let prev = before[before.length - 1]?.value ?? null;
    for (const p of raw) {
      expected += counterIncrement(prev, p.value);
      prev = p.value;
    }
    expect(raw.some((p, i) => i > 0 && p.value < (raw[i - 1]?.value ?? 0) / 2)).toBe(true);
    expect(day.values[0]).toBeCloseTo(expected, 9);
  });
});

describe('reading only some hours', () => {
  it('hours: the buckets of those hours as without it, from raw points and minute rows; the rest empty', async () => {
    const store = await memoryStore('Asia/Shanghai', () => T0 + 3 * DAY);
    const a = { thingId: 1, metric: 'kwh' };
    const pts: Point[] = [];
    // A counter with a reset inside hour 9, so the raw read's step into a chosen hour matters.
    for (let t = T0; t < T0 + DAY; t += 30_000)
      pts.push({
        ...a,
        ts: t,
        value: t < T0 + 9 * HOUR + 17 * MINUTE ? 100 + (t - T0) / 20_000 : (t - T0) / 60_000,
      });
    // The reading on the range's end closes hour 23's last bucket.
    pts.push({ ...a, ts: T0 + DAY, value: DAY / 60_000 });
    await store.write(pts);
    const hours = [T0 + 3 * HOUR, T0 + 9 * HOUR, T0 + 10 * HOUR, T0 + 21 * HOUR, T0 + 23 * HOUR];
    const query = {
      series: [a],
      start: T0,
      end: T0 + DAY,
      bucket: { widthMs: 15 * MINUTE },
      aggregator: 'delta' as const,
    };
    for (const at of ['raw', 'minute'] as const) {
      const all = await store.bucketsAt(query, at);
      const some = await store.bucketsAt({ ...query, hours }, at);
      const inHours = (ts: number) => hours.some((h) => ts >= h && ts < h + HOUR);
      expect(
        some.buckets.filter((b) => inHours(b.start)),
        at,
      ).toEqual(all.buckets.filter((b) => inHours(b.start)));
      expect(
        some.buckets.filter((b) => !inHours(b.start)).every((b) => b.value === null && b.count === 0),
        at,
      ).toBe(true);
      expect(
        (await store.bucketsAt({ ...query, hours: [] }, at)).buckets.every((b) => b.value === null),
        at,
      ).toBe(true);
    }
    await expect(store.bucketColumns({ ...query, bucket: { widthMs: DAY }, hours })).rejects.toThrow(
      RangeError,
    );
  });
});

describe('writes, durability and retention', () => {
  const key = { thingId: 9, metric: 'v' };

  it('stores raw points series by series within a commit (one series reads few vectors), no minute rows above the horizon, and retention stores those below it time-major (DuckDB keeps their times as runs)', async () => {
    const dir = tempDir();
    const now = () => T0 + 5 * DAY;
    const series = [3, 1, 2].map((thingId) => ({ thingId, metric: 'p' }));
    const burst = (from: number) =>
      series.flatMap((k, s) =>
        Array.from({ length: 18 }, (_, i) => ({ ...k, ts: from + i * 10_000, value: s * 100 + i })),
      );
    const a = await openTelemetryStore({ dataDir: dir, timeZone: 'UTC', retention: RETENTION, now });
    await a.write(burst(T0)); // minutes computed in JS
    await a.close();
    const b = await openTelemetryStore({ dataDir: dir, timeZone: 'UTC', retention: RETENTION, now });
    await b.write(burst(T0 + 3 * MINUTE)); // the first write after opening: hours in SQL
    await b.close();
    const stored = (sql: string) => storedRows(dir, sql);
    expect(await stored('SELECT bucket, series_id FROM minute')).toEqual([]);
    const d = await openTelemetryStore({ dataDir: dir, timeZone: 'UTC', retention: RETENTION, now });
    const before = await d.bucketsAt(
      { series, start: T0, end: T0 + HOUR, bucket: { widthMs: MINUTE }, aggregator: 'avg' },
      'minute',
    );
    await d.applyRetention(T0 + HOUR + RETENTION.rawDays * DAY + 30 * MINUTE); // the horizon moves to T0 + 1 h
    expect(
      await d.bucketsAt({
        series,
        start: T0,
        end: T0 + HOUR,
        bucket: { widthMs: MINUTE },
        aggregator: 'avg',
      }),
    ).toEqual({ ...before, resolution: 'minute' });
    await d.close();
    const inOrder = (rows: number[][]) =>
      [...rows].sort((x, y) => (x[0] as number) - (y[0] as number) || (x[1] as number) - (y[1] as number));
    const raw = await stored('SELECT ts, series_id FROM raw');
    const minute = await stored('SELECT bucket, series_id FROM minute');
    expect(raw).toHaveLength(2 * 3 * 18);
    // each commit's points of a series lie together, in time order
    const runs = raw.map((r) => r[1]).filter((id, i, ids) => i === 0 || id !== ids[i - 1]);
    expect(runs).toHaveLength(2 * 3);
    for (let i = 1; i < raw.length; i++)
      if (raw[i]?.[1] === raw[i - 1]?.[1]) expect(raw[i]?.[0]).toBeGreaterThan(raw[i - 1]?.[0] as number);
    expect(minute).toHaveLength(2 * 3 * 3);
    expect(minute).toEqual(inOrder(minute));
  });

  it('maintenance rewrites closed windows of raw points sorted by series, history written below them later too, with the same answers', async () => {
    const dir = tempDir();
    const now = T0 + 3 * DAY + 2 * HOUR;
    const series = [3, 1, 2].map((thingId) => ({ thingId, metric: 'p' }));
    const hourOf = (from: number) =>
      series.flatMap((k, s) =>
        Array.from({ length: 6 }, (_, i) => ({ ...k, ts: from + i * 10 * MINUTE, value: s * 100 + i })),
      );
    const store = await openTelemetryStore({
      dataDir: dir,
      timeZone: 'UTC',
      retention: RETENTION,
      now: () => now,
    });
    for (let h = 0; h < 3 * 24 + 2; h++) await store.write(hourOf(T0 + h * HOUR));
    const answers = async () =>
      Promise.all([
        ...series.map((k) => store.points(k, T0 - DAY, now, 100_000)),
        store.pointColumns(series, T0 - DAY, now, 100_000),
        store.bucketsAt(
          { series, start: T0 - DAY, end: T0 + 3 * DAY, bucket: { widthMs: HOUR }, aggregator: 'avg' },
          'raw',
        ),
      ]);
    const before = await answers();
    await store.applyRetention(now);
    expect(await answers()).toEqual(before);
    // History below the rewritten days: rewritten at the next run, the days above not again.
    for (let h = 0; h < 24; h++) await store.write(hourOf(T0 - DAY + h * HOUR));
    const withHistory = await answers();
    await store.applyRetention(now);
    expect(await answers()).toEqual(withHistory);
    expect(await store.checkRollups()).toEqual({ minute: 0, hour: 0, day: 0 });
    await store.close();
    const instance = await DuckDBInstance.create(join(dir, 'telemetry.duckdb'), { threads: '1' });
    const c = await instance.connect();
    const raw = (await c.runAndReadAll('SELECT ts, series_id FROM raw')).getRows().map((r) => r.map(Number));
    c.closeSync();
    instance.closeSync();
    expect(raw).toHaveLength(4 * 24 * 18 + 2 * 18);
    // windows of two days from the epoch: [T0 - 2 days, T0) holds the history, [T0, T0 + 2 days) is
    // closed, [T0 + 2 days, T0 + 4 days) still open
    expect(T0 % (2 * DAY)).toBe(0);
    for (const lo of [T0 - 2 * DAY, T0]) {
      const rows = raw.filter(([ts]) => (ts as number) >= lo && (ts as number) < lo + 2 * DAY);
      const sorted = [...rows].sort(
        (x, y) => (x[1] as number) - (y[1] as number) || (x[0] as number) - (y[0] as number),
      );
      expect(rows).toEqual(sorted);
    }
    const open = raw.filter(([ts]) => (ts as number) >= T0 + 2 * DAY).map((r) => r[1]);
    expect(open).not.toEqual([...open].sort());
  });

  describe('minute rows compacted like raw points', () => {
    const now = T0 + 3 * DAY + 2 * HOUR;
    const series = [3, 1, 2].map((thingId) => ({ thingId, metric: 'p' }));
    const opened = async (dir: string) => {
      const s = await openTelemetryStore({
        dataDir: dir,
        timeZone: 'UTC',
        retention: RETENTION,
        now: () => now,
      });
      open.push(s);
      return s;
    };
    /** Hours of 3 series at 10-minute steps, one commit an hour: minute rows time-major. */
    const written = async (dir: string) => {
      const store = await opened(dir);
      for (let h = 0; h < 3 * 24 + 2; h++)
        await store.write(
          series.flatMap((k, s) =>
            Array.from({ length: 6 }, (_, i) => ({
              ...k,
              ts: T0 + h * HOUR + i * 10 * MINUTE,
              value: s * 1000 + h * 6 + i,
            })),
          ),
        );
      return store;
    };
    const answers = (store: DuckDBTelemetryStore) =>
      Promise.all(
        (['avg', 'delta', 'first', 'last', 'max'] as const).flatMap((aggregator) =>
          [MINUTE, 15 * MINUTE].map((widthMs) =>
            store.bucketsAt({ series, start: T0, end: now, bucket: { widthMs }, aggregator }, 'minute'),
          ),
        ),
      );
    /** The file's minute rows in stored order, opened directly after the store closed. */
    const storedMinutes = (dir: string, sql = 'SELECT bucket, series_id FROM minute') => storedRows(dir, sql);
    const bySeries = (rows: number[][]) =>
      [...rows].sort((x, y) => (x[1] as number) - (y[1] as number) || (x[0] as number) - (y[0] as number));
    const byTime = (rows: number[][]) =>
      [...rows].sort((x, y) => (x[0] as number) - (y[0] as number) || (x[1] as number) - (y[1] as number));
    const inWindow = (rows: number[][], lo: number) =>
      rows.filter(([bucket]) => (bucket as number) >= lo && (bucket as number) < lo + 2 * DAY);
    /**
     * [T0, T0 + 2 days) is a closed window, its 3 series one block (compact.test has several):
     * minute by minute; [T0 + 2 days, T0 + 4 days) is still open, left as written.
     */
    const expectCompacted = (rows: number[][], written: (rows: number[][]) => number[][]) => {
      expect(T0 % (2 * DAY)).toBe(0);
      expect(rows).toHaveLength((3 * 24 + 2) * 18);
      const closed = inWindow(rows, T0);
      expect(closed).toHaveLength(2 * 24 * 18);
      expect(closed).toEqual(byTime(closed));
      const opening = inWindow(rows, T0 + 2 * DAY);
      expect(opening).toEqual(written(opening));
    };

    /** Runs the maintenance, checks the answers and rollups are as before, and closes the store. */
    /** Maintenance that moves the minute horizon to `now`: every minute row below it stored. */
    const settled = now + RETENTION.rawDays * DAY + 30 * MINUTE;
    const maintainedAlike = async (store: DuckDBTelemetryStore, before: unknown) => {
      await store.applyRetention(settled);
      expect(await answers(store)).toEqual(before);
      expect(await store.checkRollups()).toEqual({ minute: 0, hour: 0, day: 0 });
      await store.close();
    };

    it('maintenance rewrites closed windows of minute rows, leaves the open one as written, with the same answers', async () => {
      const dir = tempDir();
      const store = await written(dir);
      await maintainedAlike(store, await answers(store));
      expectCompacted(await storedMinutes(dir), byTime);
    });

    it('a store whose raw points were compacted before minute rows were gets its minute rows compacted at the next run', async () => {
      const dir = tempDir();
      const store = await written(dir);
      const before = await answers(store);
      await store.applyRetention(settled);
      await store.close();
      // What the code before minute compaction left: the raw span recorded and no minute span; the
      // minute rows put in another order than compaction's, to see which windows it rewrites.
      const instance = await DuckDBInstance.create(join(dir, 'telemetry.duckdb'), { threads: '1' });
      const c = await instance.connect();
      await c.run("DELETE FROM meta WHERE key LIKE 'minute_sorted_%'");
      await c.run('CREATE TEMP TABLE m AS SELECT * FROM minute ORDER BY series_id, bucket');
      await c.run('DELETE FROM minute');
      await c.run('INSERT INTO minute SELECT * FROM m');
      const span = (await c.runAndReadAll("SELECT key FROM meta WHERE key LIKE '%_sorted_%' ORDER BY key"))
        .getRows()
        .map((r) => r[0]);
      c.closeSync();
      instance.closeSync();
      expect(span).toEqual(['raw_sorted_from', 'raw_sorted_to']);
      const rows = await storedMinutes(dir);
      expect(rows).toEqual(bySeries(rows));

      await maintainedAlike(await opened(dir), before);
      expectCompacted(await storedMinutes(dir), bySeries);
      expect(
        await storedMinutes(dir, "SELECT value FROM meta WHERE key LIKE 'minute_sorted_%' ORDER BY key"),
      ).toEqual([[T0], [T0 + 2 * DAY]]);
    });
  });

  it('maintenance started just before close() ends quietly', async () => {
    const now = T0 + 6 * DAY;
    const store = await openTelemetryStore({
      dataDir: tempDir(),
      timeZone: 'UTC',
      retention: RETENTION,
      now: () => now,
    });
    const points = Array.from({ length: 3 }, (_, s) =>
      Array.from({ length: 6 * 24 * 6 }, (_, i) => ({
        thingId: s,
        metric: 'p',
        ts: T0 + i * 10 * MINUTE,
        value: i,
      })),
    ).flat();
    await store.write(points);
    const maintenance = store.applyRetention(now);
    await store.close();
    await expect(maintenance).resolves.toBeUndefined();
  });

  it('group commit: concurrent writes share a transaction', async () => {
    const store = await memoryStore();
    const before = store.stats.commits;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.write([{ thingId: i, metric: 'x', ts: T0 + i, value: i }])),
    );
    expect(store.stats.commits - before).toBe(1);
    expect(store.latest([{ thingId: 19, metric: 'x' }])[0]?.value).toBe(19);
  });

  it('history written below the first point commits apart from live points, once however often it is written', async () => {
    const store = await memoryStore();
    const live = T0 + DAY;
    await store.write([{ thingId: 1, metric: 'e', ts: live, value: 1000 }]);
    const history = () => {
      const ts = Float64Array.from({ length: 600 }, (_, i) => T0 + i * 10_000);
      return { thingId: 1, metrics: ['e'], metric: new Uint32Array(600), ts, values: ts.map((_, i) => i) };
    };
    const before = store.stats.commits;
    await Promise.all([
      store.writeBatch(history()),
      store.write([{ thingId: 1, metric: 'e', ts: live + 10_000, value: 1001 }]),
    ]);
    expect(store.stats.commits - before).toBe(2);
    // Written again (a history resumed after a crash): replaced, not doubled.
    await store.writeBatch(history());
    const points = await store.points({ thingId: 1, metric: 'e' }, T0, live + DAY, 10_000);
    expect(points.length).toBe(602);
    expect(store.latest([{ thingId: 1, metric: 'e' }])[0]).toMatchObject({ ts: live + 10_000, value: 1001 });
    expect(await store.checkRollups()).toEqual({ minute: 0, hour: 0, day: 0 });
  });

  it('history written backwards below the first point gets the rollups of the same points written in order', async () => {
    // Integer counters with resets and irregular steps, so sums are exact in any order. Series 1's
    // first live point opens its minute (the history's last step sets that minute's inc_edge);
    // series 2's lies mid-minute, in the same minute as the history's last points.
    const live = [T0 + DAY, T0 + DAY + 3 * MINUTE + 25_000];
    const rnd = random(7);
    const series = [1, 2].map((thingId, s) => {
      const ts: number[] = [];
      const values: number[] = [];
      let v = 0;
      for (
        let t = T0 + 17_000 * s;
        t < (live[s] as number) + 2 * HOUR;
        t += 1000 + Math.floor(rnd() * 30_000)
      ) {
        v = rnd() < 0.01 ? Math.floor(rnd() * 10) : v + 1 + Math.floor(rnd() * 100);
        ts.push(t);
        // No two values alike: min_ts and max_ts have no ties to break.
        values.push(v * 100_000 + ts.length);
      }
      const at = ts.findIndex((t) => t >= (live[s] as number));
      ts[at] = live[s] as number;
      return { thingId, ts, values, at };
    });
    const pointsOf = (x: (typeof series)[number], from: number, to: number): Point[] =>
      x.ts
        .slice(from, to)
        .map((ts, i) => ({ thingId: x.thingId, metric: 'e', ts, value: x.values[from + i] as number }));
    const now = () => T0 + 5 * DAY;
    const tables = (dir: string) => rollupTables(dir, ['minute', 'hour', 'day']);

    const opened = async (dataDir: string) =>
      openTelemetryStore({ dataDir, timeZone: 'Asia/Kolkata', retention: RETENTION, now });

    const inOrderDir = tempDir();
    const a = await opened(inOrderDir);
    await a.write(series.flatMap((x) => pointsOf(x, 0, x.ts.length)));
    await a.close();

    const backwardsDir = tempDir();
    const b = await opened(backwardsDir);
    await b.write(series.flatMap((x) => pointsOf(x, x.at, x.ts.length)));
    for (const x of series) {
      for (let to = x.at; to > 0; to -= 1500) {
        const from = Math.max(0, to - 1500);
        const ts = Float64Array.from(x.ts.slice(from, to));
        await b.writeBatch({
          thingId: x.thingId,
          metrics: ['e'],
          metric: new Uint32Array(ts.length),
          ts,
          values: Float64Array.from(x.values.slice(from, to)),
        });
        // After each batch, not only at the end: a later, older batch recomputes up to the next
        // hour with data and would mend hours an earlier one left wrong.
        expect(await b.checkRollups(), `${x.thingId} ${from}..${to}`).toEqual({ minute: 0, hour: 0, day: 0 });
      }
    }
    await b.close();
    expect(await tables(backwardsDir)).toEqual(await tables(inOrderDir));
  });

  it.each(['Asia/Kolkata', 'America/New_York'])(
    "in-order batches go on from each series' open hour and day: the rollups of one write, through restarts mid-hour and late points (%s)",
    async (timeZone) => {
      // Integer counters with resets (sums exact in any order) and no two values alike (no ties
      // for min_ts and max_ts), some on hour starts; every 40th point held back and written late.
      const rnd = random(23);
      const points: Point[][] = [[], [], []];
      for (const thingId of [1, 2, 3]) {
        let v = 0;
        for (let t = T0 + DAY + thingId * 7_000; t < T0 + 4 * DAY; ) {
          v = rnd() < 0.01 ? Math.floor(rnd() * 10) : v + 1 + Math.floor(rnd() * 100);
          points[thingId - 1]?.push({ thingId, metric: 'e', ts: t, value: v * 100_000 + (t % 99_991) });
          const next = t + 1000 + Math.floor(rnd() * 120_000);
          t = rnd() < 0.3 && floorHour(next) > t ? floorHour(next) : next;
        }
      }
      const all = points.flat();
      const now = () => T0 + 5 * DAY;
      const opened = (dataDir: string) =>
        openTelemetryStore({ dataDir, timeZone, retention: RETENTION, now });
      const tables = (dir: string) => rollupTables(dir, ['hour', 'day']);

      const oneDir = tempDir();
      const one = await opened(oneDir);
      await one.write(all);
      await one.close();

      const batchesDir = tempDir();
      let store = await opened(batchesDir);
      const late: Point[] = [];
      const cursors = [0, 0, 0];
      let commits = 0;
      const carried = { groups: 0, carried: 0 };
      const count = (s: DuckDBTelemetryStore) => {
        carried.groups += s.stats.groups;
        carried.carried += s.stats.carried;
      };
      while (cursors.some((c, k) => c < (points[k] as Point[]).length)) {
        const batch: Point[] = [];
        for (const [k, series] of points.entries()) {
          const to = Math.min(series.length, (cursors[k] as number) + 1 + Math.floor(rnd() * 60));
          for (let i = cursors[k] as number; i < to; i++) {
            const p = series[i] as Point;
            if (i % 40 === 39) late.push(p);
            else batch.push(p);
          }
          cursors[k] = to;
        }
        await store.write(batch);
        if (++commits % 25 === 0 && late.length > 0) await store.write(late.splice(0));
        // Restarts: no open row is in memory until a commit's SQL reads it back.
        if (commits % 60 === 30) {
          count(store);
          await store.close();
          store = await opened(batchesDir);
        }
      }
      await store.write(late);
      expect(await store.checkRollups()).toEqual({ minute: 0, hour: 0, day: 0 });
      count(store);
      await store.close();
      expect(commits).toBeGreaterThan(100);
      // In JS but for the late writes and each series' first batch after a restart: the rows a
      // commit recomputes in SQL are read back as the next commit's open rows.
      expect(carried.carried).toBeGreaterThan(0.85 * carried.groups);
      expect(await tables(batchesDir)).toEqual(await tables(oneDir));
    },
  );

  it('keeps latest values on write and reloads them on reopen; reopening in another zone re-aligns days', async () => {
    const dir = tempDir();
    const now = () => T0 + 5 * DAY;
    const a = await openTelemetryStore({ dataDir: dir, timeZone: 'UTC', retention: RETENTION, now });
    await a.write([
      { ...key, ts: T0, value: 1 },
      { ...key, ts: T0 + 20 * HOUR, value: 2 },
      { thingId: 10, metric: 'w', ts: T0 + 5, value: 3 },
    ]);
    await a.write([{ ...key, ts: T0 + HOUR, value: 9 }]); // late: not the latest
    expect(a.latest([key])).toEqual([{ ...key, ts: T0 + 20 * HOUR, value: 2 }]);
    await a.close();
    const b = await openTelemetryStore({
      dataDir: dir,
      timeZone: 'Asia/Shanghai',
      retention: RETENTION,
      now,
    });
    open.push(b);
    expect(b.latest([key, { thingId: 10, metric: 'w' }, { thingId: 11, metric: 'w' }])).toEqual([
      { ...key, ts: T0 + 20 * HOUR, value: 2 },
      { thingId: 10, metric: 'w', ts: T0 + 5, value: 3 },
    ]);
    const days = await b.buckets({
      series: [key],
      start: T0 - 8 * HOUR,
      end: T0 + 40 * HOUR,
      bucket: { widthMs: DAY },
      aggregator: 'sum',
    });
    expect(days.buckets.map((x) => [x.start, x.value])).toEqual([
      [T0 - 8 * HOUR, 10],
      [T0 + 16 * HOUR, 2],
    ]);
  });

  it('retention removes old raw points and minute and hour rows, and keeps day rows', async () => {
    let now = T0 + DAY;
    const store = await memoryStore('UTC', () => now);
    await store.write([
      { ...key, ts: T0, value: 4 },
      { ...key, ts: T0 + 30 * MINUTE, value: 6 },
    ]);
    const q = (at: Resolution, widthMs: number) =>
      store.bucketsAt(
        { series: [key], start: T0, end: T0 + DAY, bucket: { widthMs }, aggregator: 'sum' },
        at,
      );
    now = T0 + 100 * DAY;
    await store.applyRetention(now);
    // Raw points below the new minute horizon are kept one run longer (minutes.ts settleMinutes).
    expect((await q('raw', HOUR)).buckets[0]?.value).toBe(10);
    expect((await q('minute', HOUR)).buckets[0]?.value).toBe(10);
    now = T0 + 101 * DAY;
    await store.applyRetention(now);
    expect((await q('raw', HOUR)).buckets[0]?.value).toBeNull();
    expect((await q('minute', HOUR)).buckets[0]?.value).toBe(10);
    now = T0 + 500 * DAY;
    await store.applyRetention(now);
    expect((await q('minute', HOUR)).buckets[0]?.value).toBeNull();
    expect((await q('hour', HOUR)).buckets[0]?.value).toBe(10);
    now = T0 + 2000 * DAY;
    await store.applyRetention(now);
    expect((await q('hour', HOUR)).buckets[0]?.value).toBeNull();
    expect((await q('day', DAY)).buckets[0]?.value).toBe(10);
    expect(store.latest([key])[0]?.value).toBe(6);
  });

  it('recent points are served from memory and agree with the stored answer after reopening', async () => {
    const dir = tempDir();
    const now = () => T0 + 2 * HOUR;
    const keys = [key, { thingId: 9, metric: 'kwh' }];
    const a = await openTelemetryStore({ dataDir: dir, timeZone: 'UTC', retention: RETENTION, now });
    const rnd = random(5);
    let counter = 0;
    let batch: Point[] = [];
    for (let t = T0; t < T0 + HOUR; t += 5000 + Math.floor(rnd() * 10_000)) {
      counter += Math.floor(rnd() * 8) / 4;
      batch.push(
        { ...key, ts: t, value: Math.floor(rnd() * 400) / 4 },
        { ...(keys[1] as SeriesKey), ts: t + 1, value: counter },
      );
      if (batch.length >= 24) {
        await a.write(batch); // in-order commits: minutes computed from memory
        batch = [];
      }
    }
    await a.write(batch);
    const q = (at?: Resolution) =>
      (at ? a.bucketsAt.bind(a) : (query: Parameters<typeof a.buckets>[0]) => a.buckets(query))(
        {
          series: keys,
          start: T0 + 50 * MINUTE,
          end: T0 + 55 * MINUTE,
          bucket: { widthMs: 10_000 },
          aggregator: 'delta',
        },
        at,
      );
    const fromMemory = await q();
    const fromMinutes = await a.bucketsAt(
      {
        series: keys,
        start: T0 + 50 * MINUTE,
        end: T0 + 55 * MINUTE,
        bucket: { widthMs: MINUTE },
        aggregator: 'delta',
      },
      'minute',
    );
    const recentPoints = await a.points(key, T0 + 50 * MINUTE, T0 + HOUR, 1000);
    await a.close();
    const b = await openTelemetryStore({ dataDir: dir, timeZone: 'UTC', retention: RETENTION, now });
    open.push(b);
    const fromDisk = await b.bucketsAt(
      {
        series: keys,
        start: T0 + 50 * MINUTE,
        end: T0 + 55 * MINUTE,
        bucket: { widthMs: 10_000 },
        aggregator: 'delta',
      },
      'raw',
    );
    expect(fromMemory.buckets).toEqual(fromDisk.buckets);
    expect(await b.points(key, T0 + 50 * MINUTE, T0 + HOUR, 1000)).toEqual(recentPoints);
    // Six 10 s buckets add up to the minute.
    const firstMinute = fromMemory.buckets.slice(30, 36).reduce((x, bk) => x + (bk.value ?? 0), 0);
    expect(firstMinute).toBe(fromMinutes.buckets[5]?.value);
    expect(await b.checkRollups()).toEqual({ minute: 0, hour: 0, day: 0 });
  });

  it('pointColumns reads several series in one read as points() reads each, page by page after a full one, from memory and from disk', async () => {
    const dir = tempDir();
    const now = () => T0 + 2 * HOUR;
    const keys: SeriesKey[] = [
      { thingId: 7, metric: 'kwh' },
      { thingId: 404, metric: 'kwh' }, // never written
      { thingId: 3, metric: 'kwh' },
      { thingId: 5, metric: 'kwh' },
    ];
    const a = await openTelemetryStore({ dataDir: dir, timeZone: 'UTC', retention: RETENTION, now });
    const rnd = random(11);
    const written: Point[] = [];
    for (const k of [keys[0], keys[2], keys[3]] as SeriesKey[])
      for (let t = T0 + k.thingId * 1000; t < T0 + 20 * MINUTE; t += 20_000 + Math.floor(rnd() * 40_000))
        written.push({ ...k, ts: t, value: Math.floor(rnd() * 400) / 4 });
    await a.write(written);
    const [from, to] = [T0 + 3 * MINUTE, T0 + 17 * MINUTE];
    /** Every page of 7 points, resumed after the last, regrouped into each series' points. */
    const paged = async (store: DuckDBTelemetryStore) => {
      const out: Point[][] = keys.map(() => []);
      let resumeAt = 0;
      let after: number | undefined;
      let pages = 0;
      for (;;) {
        const page = await store.pointColumns(keys.slice(resumeAt), from, to, 7, after);
        pages++;
        page.ts.forEach((ts, r) => {
          const i = resumeAt + (page.index[r] as number);
          out[i]?.push({ ...(keys[i] as SeriesKey), ts, value: page.values[r] as number });
        });
        if (page.ts.length < 7) return { out, pages };
        resumeAt += page.index[page.ts.length - 1] as number;
        after = page.ts[page.ts.length - 1];
      }
    };
    const each = await Promise.all(keys.map((k) => a.points(k, from, to, 1000)));
    expect(each[1]).toEqual([]);
    const total = each.reduce((n, p) => n + p.length, 0);
    expect(total).toBeGreaterThan(30);
    const fromMemory = await paged(a);
    expect(fromMemory.out).toEqual(each);
    expect(fromMemory.pages).toBe(Math.floor(total / 7) + 1);
    await a.close();
    const b = await openTelemetryStore({ dataDir: dir, timeZone: 'UTC', retention: RETENTION, now });
    open.push(b);
    expect((await paged(b)).out).toEqual(each);
  });

  it('pointColumns reads the range whole when the intervals promise few points, and pages when late points made them more', async () => {
    const store = await memoryStore('UTC', () => T0 + DAY);
    const [a, b] = [7, 3].map((thingId) => ({ thingId, metric: 'kwh' })) as [SeriesKey, SeriesKey];
    const hourly = (k: SeriesKey) =>
      Array.from({ length: 10 }, (_, h) => ({ ...k, ts: T0 + h * HOUR, value: h * 10 + k.thingId }));
    await store.write([...hourly(a), ...hourly(b)]);
    const [from, to] = [T0 + 2 * HOUR, T0 + 5 * HOUR];
    const asPoints = (keys: readonly SeriesKey[], c: Awaited<ReturnType<typeof store.pointColumns>>) =>
      Array.from(c.ts, (ts, r) => ({ ...(keys[c.index[r] as number] as SeriesKey), ts, value: c.values[r] }));
    // Series b asked for twice is answered twice, in the order asked.
    const keys = [b, a, b];
    const whole = await store.pointColumns(keys, from, to, 100);
    const each = await Promise.all(keys.map((k) => store.points(k, from, to, 100)));
    expect(asPoints(keys, whole)).toEqual(each.flat());
    expect(whole.ts.length).toBe(9);
    // Fifty late points in the third hour: the interval still says ~4 points in the range.
    await store.write(
      Array.from({ length: 50 }, (_, i) => ({ ...a, ts: T0 + 2 * HOUR + 1000 + i * 1000, value: i })),
    );
    const page = await store.pointColumns([a], from, to, 10);
    expect(asPoints([a], page)).toEqual(await store.points(a, from, to, 10));
    expect(page.ts.length).toBe(10);
  });

  it('downsample calls made together (one read of their raw points) answer as each made alone', async () => {
    const store = await memoryStore('UTC', () => T0 + DAY);
    const keys: SeriesKey[] = [3, 1, 2, 5, 404].map((thingId) => ({ thingId, metric: 'p' }));
    // Every 10 s (buckets: more points than asked for), every minute and every 5 minutes (their
    // raw points), every 5 minutes with 300 late points (raw points read, then buckets).
    const steps = [10_000, MINUTE, 5 * MINUTE, 5 * MINUTE];
    await store.write(
      keys.slice(0, 4).flatMap((k, i) =>
        Array.from({ length: Math.floor((4 * HOUR) / (steps[i] as number)) }, (_, j) => ({
          ...k,
          ts: T0 + j * (steps[i] as number),
          value: (j * 7) % 13,
        })),
      ),
    );
    await store.write(
      Array.from({ length: 300 }, (_, j) => ({
        ...(keys[3] as SeriesKey),
        ts: T0 + HOUR + 1000 + j * 1000,
        value: j,
      })),
    );
    const [from, to] = [T0 + HOUR, T0 + 2 * HOUR];
    const alone: Point[][] = [];
    for (const k of keys) alone.push(await store.downsample(k, from, to, 200));
    const together = await Promise.all(keys.map((k) => store.downsample(k, from, to, 200)));
    expect(together).toEqual(alone);
    const sizes = alone.map((p) => p.length);
    expect(sizes.slice(1, 3)).toEqual([60, 12]);
    expect(sizes[4]).toBe(0);
    for (const k of [0, 3]) {
      expect(sizes[k]).toBeGreaterThan(12);
      expect(sizes[k]).toBeLessThanOrEqual(200);
    }
  });

  it('pointColumns puts points written interleaved and late in series and time order', async () => {
    const store = await memoryStore('UTC', () => T0 + 2 * DAY);
    const keys: SeriesKey[] = [3, 1, 2].map((thingId) => ({ thingId, metric: 'kwh' }));
    const all: Point[] = [];
    // Forty writes of a minute of every series each (the minutes read are no longer in memory),
    // then a late point of series 1 and 3.
    for (let m = 0; m < 40; m++) {
      const batch = keys.flatMap((k) =>
        [0, 20_000, 40_000].map((s) => ({
          ...k,
          ts: T0 + m * MINUTE + s + k.thingId,
          value: m * 10 + s / 1000,
        })),
      );
      all.push(...batch);
      await store.write(batch);
    }
    const late = [keys[1], keys[0]].map((k) => ({
      ...(k as SeriesKey),
      ts: T0 + 5 * MINUTE + 30_000,
      value: 51,
    }));
    all.push(...late);
    await store.write(late);
    const from = T0 + MINUTE;
    const to = T0 + 9 * MINUTE;
    const page = await store.pointColumns([...keys, keys[1] as SeriesKey], from, to, 1000);
    const expected = [...keys, keys[1] as SeriesKey].flatMap((k, i) =>
      all
        .filter((p) => p.thingId === k.thingId && p.ts >= from && p.ts < to)
        .sort((a, b) => a.ts - b.ts)
        .map((p) => [i, p.ts, p.value]),
    );
    expect([...page.index].map((i, r) => [i, page.ts[r], page.values[r]])).toEqual(expected);
    // A page that ends inside the second series, resumed after its last point.
    const first = await store.pointColumns(keys, from, to, 30);
    expect(first.ts).toHaveLength(30);
    const rest = await store.pointColumns(keys.slice(1), from, to, 1000, first.ts[29]);
    const once = expected.filter((e) => (e[0] as number) < keys.length);
    expect([...first.index, ...[...rest.index].map((i) => i + 1)]).toEqual(once.map((e) => e[0]));
    expect([...first.ts, ...rest.ts]).toEqual(once.map((e) => e[1]));
  });

  it('downsamples to at most maxPoints, with each bucket minimum and maximum at their own times', async () => {
    const store = await memoryStore('UTC', () => T0 + 10 * DAY);
    const pts: Point[] = [];
    for (let t = T0; t < T0 + 2 * DAY; t += 10_000) pts.push({ ...key, ts: t, value: (t / 10_000) % 97 });
    await store.write(pts);
    const out = await store.downsample(key, T0, T0 + 2 * DAY, 200);
    expect(out.length).toBeLessThanOrEqual(200);
    expect(out.length).toBeGreaterThan(50);
    for (const p of out) expect(pts.find((x) => x.ts === p.ts)?.value).toBe(p.value);
    expect(Math.max(...out.map((p) => p.value))).toBe(96);
    const few = await store.downsample(key, T0, T0 + 10 * MINUTE, 100);
    expect(few).toHaveLength(60);
  });

  it('downsamples the last minutes of a fast series from its recent points, each bucket extreme at its time', async () => {
    const end = T0 + 10 * MINUTE;
    const store = await memoryStore('UTC', () => end);
    // 5 points a second, distinct values (7919 is prime to 100,003), in commits of a second.
    const pts: Point[] = [];
    for (let i = 0; i < (10 * MINUTE) / 200; i++)
      pts.push({ ...key, ts: T0 + i * 200, value: (i * 7919) % 100_003 });
    for (let i = 0; i < pts.length; i += 5) await store.write(pts.slice(i, i + 5));
    const start = end - 5 * MINUTE - 300;
    // Answered from memory: no statement on a reader connection.
    let statements = 0;
    for (const lane of (store as unknown as { readers: { run: (...a: unknown[]) => unknown }[] }).readers) {
      const run = lane.run.bind(lane);
      lane.run = (...a) => {
        statements++;
        return run(...a);
      };
    }
    const out = await store.downsample(key, start, end, 200);
    expect(statements).toBe(0);
    // By brute force: the widths' table picks the bucket, anchored at midnight (UTC).
    const width = bucketWidthFor((end - start) / 100);
    const expected: { ts: number; value: number }[] = [];
    // A bucket's extremes are its own (the first bucket's points before `start` count), then
    // those outside the range are left out, as from stored points.
    for (let b = Math.floor((start - T0) / width); b * width + T0 < end; b++) {
      const inside = pts.filter((p) => Math.floor((p.ts - T0) / width) === b);
      if (inside.length === 0) continue;
      const min = inside.reduce((m, p) => (p.value < m.value ? p : m));
      const max = inside.reduce((m, p) => (p.value > m.value ? p : m));
      for (const p of min.ts <= max.ts ? [min, max] : [max, min])
        if (!expected.includes(p) && p.ts >= start && p.ts < end) expected.push(p);
    }
    expect(out.map((p) => ({ ts: p.ts, value: p.value }))).toEqual(
      expected.map((p) => ({ ts: p.ts, value: p.value })),
    );
    expect(out.length).toBeLessThanOrEqual(200);
  });
});
