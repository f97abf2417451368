/**
 * One suite for both telemetry wings (DuckDB and VictoriaMetrics): the backend-neutral behaviour of
 * `TelemetryStore`, each answer checked against brute force over the points and, for the shared
 * datasets, against the other wing. A difference between the wings fails here.
 * VictoriaMetrics is started from Debian's binary; without it the wing is skipped (reason printed),
 * except under CI=true or REQUIRE_VICTORIA=1 (.ci/run), where that fails.
 */
import { rmSync } from 'node:fs';
import { DAY, HOUR, MINUTE, PlantCalendar } from '@kilowatch/contract/calendar';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { OpenedTelemetryStore } from '../index.ts';
import {
  type Bucket,
  type BucketAggregator,
  type BucketQuery,
  type BucketSpec,
  bucketsOf,
  type Point,
  type SeriesKey,
  TelemetryWriteError,
} from '../store.ts';
import { brute, dataset, interleave, nextStart, random, writeShuffled } from './reference.ts';
import {
  duckdbWing,
  startVictoria,
  type VictoriaProcess,
  victoriaMissing,
  victoriaWing,
  type Wing,
  type WingOptions,
} from './wings.ts';

const AGGREGATORS: BucketAggregator[] = ['avg', 'sum', 'max', 'min', 'count', 'first', 'last', 'delta'];
const T0 = Date.UTC(2024, 2, 8); // spans the New York DST change of 2024-03-10

const dirs: string[] = [];
const open: OpenedTelemetryStore[] = [];
let vm: VictoriaProcess | undefined;
const missing = victoriaMissing();
const required = process.env.CI === 'true' || process.env.REQUIRE_VICTORIA === '1';
if (missing && !required) console.info(`telemetry conformance: VictoriaMetrics wing skipped: ${missing}`);

const duckdb = duckdbWing(dirs);
const victoria = victoriaWing(() => {
  if (!vm) throw new Error('victoria-metrics is not running');
  return vm;
});
const WINGS: Wing[] = missing && !required ? [duckdb] : [duckdb, victoria];

beforeAll(async () => {
  if (missing && required)
    throw new Error(`CI=true or REQUIRE_VICTORIA=1 needs the VictoriaMetrics wing: ${missing}`);
  if (WINGS.includes(victoria)) vm = await startVictoria();
}, 30_000);

afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

afterAll(async () => {
  await vm?.stop();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function openOn(wing: Wing, o: Partial<WingOptions> = {}): Promise<OpenedTelemetryStore> {
  const s = await wing.open({ timeZone: o.timeZone ?? 'UTC', now: o.now ?? (() => T0 + 30 * DAY), ...o });
  open.push(s);
  return s;
}

/** What a store says of a series' gaps (both wings describe it). */
function facts(
  store: OpenedTelemetryStore,
  s: SeriesKey,
): { firstTs: number | null; gapToleranceMs: number } {
  const d = (
    store as unknown as { describe(s: SeriesKey): { firstTs: number | null; intervalMs: number | null } }
  ).describe(s);
  return { firstTs: d.firstTs, gapToleranceMs: Math.max(3 * (d.intervalMs ?? 0), 60_000) };
}

/** Every answer without the informational `resolution` (each wing reads what it stores). */
const answer = async (store: OpenedTelemetryStore, q: BucketQuery) => (await store.buckets(q)).buckets;

/** `complete: false` answers the query's values and counts as its full answer does. */
async function expectSameWithoutComplete(store: OpenedTelemetryStore, q: BucketQuery) {
  const full = await store.bucketColumns(q);
  const lean = await store.bucketColumns({ ...q, complete: false });
  expect(lean.starts).toEqual(full.starts);
  expect(lean.values).toEqual(full.values);
  expect(lean.counts).toEqual(full.counts);
}

/** The random datasets' queries, for brute force and for the comparison of the wings. */
function queries(seed: number, keys: SeriesKey[]): BucketQuery[] {
  const rnd = random(seed + 100);
  const specs: BucketSpec[] = [
    { widthMs: MINUTE },
    { widthMs: 5 * MINUTE },
    { widthMs: 90_000 },
    { widthMs: HOUR },
    { widthMs: 6 * HOUR },
    { widthMs: DAY },
    { calendar: 'month' },
    { calendar: 'year' },
  ];
  const out: BucketQuery[] = [];
  for (const bucket of specs) {
    const short = 'widthMs' in bucket && bucket.widthMs < HOUR;
    const start = T0 + Math.floor(rnd() * DAY);
    const end = short ? start + 6 * HOUR + Math.floor(rnd() * HOUR) : T0 + 2 * DAY + 5 * HOUR;
    for (const aggregator of AGGREGATORS) out.push({ series: keys, start, end, bucket, aggregator });
  }
  return out;
}

/** Answers of every query on both wings, for the comparison (filled by the brute-force tests). */
const answers = new Map<string, Map<string, Bucket[]>>();

describe.each(WINGS.map((w) => [w.name, w] as const))('the %s wing', (_name, wing) => {
  describe.each([
    ['Asia/Shanghai', 11],
    ['America/New_York', 12],
    ['Asia/Kolkata', 13],
  ])('answers like brute force over the points (%s)', (timeZone, seed) => {
    it('for every aggregator and bucket layout, after late, concurrent and resent writes', async () => {
      const now = T0 + 2 * DAY + 5 * HOUR;
      const store = await openOn(wing, { timeZone, now: () => now });
      const series = dataset(seed, T0, 2);
      await writeShuffled(store, interleave(series), seed);
      const keys = series.map(({ thingId, metric }) => ({ thingId, metric }));
      const mine = new Map<string, Bucket[]>();
      for (const query of queries(seed, keys)) {
        const buckets = await answer(store, query);
        mine.set(`${query.aggregator} ${JSON.stringify(query.bucket)}`, buckets);
        const perSeries = buckets.length / keys.length;
        expect(Number.isInteger(perSeries)).toBe(true);
        for (const [k, s] of series.entries()) {
          const info = facts(store, s);
          for (let i = 0; i < perSeries; i++) {
            const b = buckets[k * perSeries + i] as Bucket;
            const next = buckets[k * perSeries + i + 1];
            const be =
              i + 1 < perSeries && next
                ? next.start
                : nextStart(new PlantCalendar(timeZone), query.bucket, b.start);
            expect(
              { value: b.value, count: b.count, complete: b.complete },
              `${s.metric} ${query.aggregator} ${JSON.stringify(query.bucket)} #${i}`,
            ).toEqual(brute(s.pts, b.start, be, query.aggregator, info, now));
          }
        }
      }
      answers.set(`${wing.name} ${timeZone}`, mine);
    }, 60_000);
  });

  describe('bucket layout', () => {
    const key = { thingId: 7, metric: 'p' };

    it('[start, end): a point exactly at a bucket start belongs to that bucket', async () => {
      const store = await openOn(wing);
      const h = T0 + 10 * HOUR;
      await store.write([
        { ...key, ts: h - 1, value: 1 },
        { ...key, ts: h, value: 2 },
        { ...key, ts: h + HOUR - 1, value: 4 },
        { ...key, ts: h + HOUR, value: 8 },
      ]);
      for (const widthMs of [HOUR, MINUTE, 1000]) {
        const r = await store.buckets({
          series: [key],
          start: h,
          end: h + HOUR,
          bucket: { widthMs },
          aggregator: 'sum',
        });
        expect(r.buckets.reduce((s, b) => s + (b.value ?? 0), 0)).toBe(6);
      }
      expect((await store.points(key, h, h + HOUR, 10)).map((p) => p.value)).toEqual([2, 4]);
    });

    it('buckets are whole grid buckets anchored at local midnight; empty ones are listed with null', async () => {
      const store = await openOn(wing, { timeZone: 'Asia/Shanghai' });
      await store.write([{ ...key, ts: T0 + 2 * HOUR + 5 * MINUTE, value: 3 }]);
      const r = await store.buckets({
        series: [key],
        start: T0 + 17 * MINUTE,
        end: T0 + 3 * HOUR,
        bucket: { widthMs: HOUR },
        aggregator: 'max',
      });
      expect(r.buckets.map((b) => [b.start, b.value])).toEqual([
        [T0, null],
        [T0 + HOUR, null],
        [T0 + 2 * HOUR, 3],
      ]);
      expect(r.buckets.every((b) => !b.complete)).toBe(true);
    });

    it('day buckets start at local midnight and DST days have their own length', async () => {
      const sh = await openOn(wing, { timeZone: 'Asia/Shanghai' });
      await sh.write([
        { ...key, ts: Date.UTC(2024, 2, 8, 15, 59), value: 1 },
        { ...key, ts: Date.UTC(2024, 2, 8, 16, 0), value: 2 },
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
      const ny = await openOn(wing, { timeZone: 'America/New_York' });
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
        [Date.UTC(2024, 2, 10, 5), 138],
        [Date.UTC(2024, 2, 11, 4), 144],
      ]);
    });

    it('calendar months and years in the plant zone; the reading at a month start closes the month before', async () => {
      const store = await openOn(wing, { timeZone: 'Asia/Shanghai', now: () => Date.UTC(2024, 5, 1) });
      await store.write([
        { ...key, ts: Date.UTC(2024, 2, 31, 15, 59), value: 100 },
        { ...key, ts: Date.UTC(2024, 2, 31, 16, 0), value: 130 },
        { ...key, ts: Date.UTC(2024, 3, 20), value: 160 },
        { ...key, ts: Date.UTC(2024, 4, 2), value: 10 },
      ]);
      const months = await store.buckets({
        series: [key],
        start: Date.UTC(2024, 1, 29, 16),
        end: Date.UTC(2024, 4, 31, 16),
        bucket: { calendar: 'month' },
        aggregator: 'delta',
      });
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

    it('refuses absurd bucket counts and hours with wide buckets', async () => {
      const store = await openOn(wing);
      const q = {
        series: [key],
        start: T0,
        end: T0 + DAY,
        bucket: { widthMs: 90_000 },
        aggregator: 'avg' as const,
      };
      await expect(store.buckets({ ...q, end: T0 + 400 * DAY, bucket: { widthMs: 1 } })).rejects.toThrow(
        /buckets/,
      );
      await expect(store.buckets({ ...q, bucket: { widthMs: DAY }, hours: [T0] })).rejects.toThrow(
        RangeError,
      );
      expect((await store.buckets({ ...q, end: T0 })).buckets).toEqual([]);
    });
  });

  describe('counters, late points and gaps', () => {
    const key = { thingId: 3, metric: 'kwh' };
    const delta = (store: OpenedTelemetryStore, widthMs: number, end = T0 + 4 * HOUR) =>
      store.buckets({ series: [key], start: T0, end, bucket: { widthMs }, aggregator: 'delta' });

    it('resets and rollovers never give negative or huge consumption', async () => {
      const store = await openOn(wing);
      const values = [100, 110, 5, 15, 14.75, 20, 99_999, 4];
      await store.write(values.map((value, i) => ({ ...key, ts: T0 + i * 10_000, value })));
      expect((await delta(store, HOUR, T0 + HOUR)).buckets[0]?.value).toBe(
        10 + 5 + 10 + 0 + 5.25 + 99_979 + 4,
      );
      expect(await wing.staleRows(store)).toBe(0);
    });

    it('a late point splits the increment of the next reading; counts are the readings that close a bucket', async () => {
      const store = await openOn(wing);
      await store.write([
        { ...key, ts: T0, value: 100 },
        { ...key, ts: T0 + 10 * MINUTE, value: 110 },
        { ...key, ts: T0 + 3 * HOUR, value: 150 },
      ]);
      expect((await delta(store, HOUR)).buckets.map((b) => b.value)).toEqual([10, null, 40, null]);
      await store.write([{ ...key, ts: T0 + 90 * MINUTE, value: 130 }]);
      expect((await delta(store, HOUR)).buckets.map((b) => b.value)).toEqual([10, 20, 20, null]);
      await store.write([{ ...key, ts: T0 + 5 * MINUTE, value: 104 }]);
      expect((await delta(store, 5 * MINUTE)).buckets.slice(0, 3).map((b) => b.value)).toEqual([4, 6, null]);
      expect((await delta(store, HOUR)).buckets.map((b) => [b.value, b.count])).toEqual([
        [10, 2],
        [20, 1],
        [20, 1],
        [null, 0],
      ]);
      expect(store.latest([key])).toEqual([{ ...key, ts: T0 + 3 * HOUR, value: 150 }]);
      expect(await wing.staleRows(store)).toBe(0);
    });

    it('a point resent at the same time replaces the stored one; resent unchanged, it is stored once', async () => {
      const store = await openOn(wing);
      await store.write([
        { ...key, ts: T0, value: 1 },
        { ...key, ts: T0 + 1000, value: 2 },
      ]);
      await store.write([{ ...key, ts: T0, value: 5 }]);
      await store.write([{ ...key, ts: T0 + 1000, value: 2 }]);
      const r = await store.buckets({
        series: [key],
        start: T0,
        end: T0 + MINUTE,
        bucket: { widthMs: MINUTE },
        aggregator: 'sum',
      });
      expect(r.buckets[0]).toMatchObject({ value: 7, count: 2 });
      expect((await store.points(key, T0, T0 + MINUTE, 10)).map((p) => p.value)).toEqual([5, 2]);
      await store.write([{ ...key, ts: T0 + 1000, value: 3 }]); // the latest, changed
      expect(store.latest([key])).toEqual([{ ...key, ts: T0 + 1000, value: 3 }]);
      expect(await wing.staleRows(store)).toBe(0);
    });

    it('quality: gaps, running buckets and buckets before the first sample are incomplete', async () => {
      let now = T0 + 2 * HOUR + 25 * MINUTE;
      const store = await openOn(wing, { now: () => now });
      const pts: Point[] = [];
      for (let t = T0 + 30 * MINUTE; t < now; t += 10_000) {
        if (t >= T0 + HOUR + 20 * MINUTE && t < T0 + HOUR + 22 * MINUTE) continue;
        pts.push({ ...key, ts: t, value: 1 });
      }
      await store.write(pts);
      const q = {
        series: [key],
        start: T0,
        end: T0 + 3 * HOUR,
        bucket: { widthMs: 30 * MINUTE },
        aggregator: 'count' as const,
      };
      expect((await store.buckets(q)).buckets.map((b) => b.complete)).toEqual([
        false,
        true,
        false,
        true,
        false,
        false,
      ]);
      now = T0 + 3 * HOUR + 10 * MINUTE;
      expect((await store.buckets(q)).buckets[4]?.complete).toBe(false);
      await store.write([{ ...key, ts: T0 + 2 * HOUR + 29 * MINUTE, value: 1 }]);
      expect((await store.buckets(q)).buckets[4]?.complete).toBe(false);
      const fill: Point[] = [];
      for (let t = T0 + 2 * HOUR + 25 * MINUTE; t < T0 + 2 * HOUR + 30 * MINUTE; t += 10_000)
        fill.push({ ...key, ts: t, value: 1 });
      await store.write(fill);
      expect((await store.buckets(q)).buckets[4]?.complete).toBe(true);
    });
  });

  it('bucketColumns answers what buckets answers; hours read only those hours', async () => {
    const store = await openOn(wing, { timeZone: 'Asia/Shanghai', now: () => T0 + 3 * DAY });
    const a = { thingId: 1, metric: 'kwh' };
    const b = { thingId: 2, metric: 'kwh' };
    const pts: Point[] = [];
    for (let t = T0; t < T0 + 2 * DAY; t += 60_000) {
      pts.push({ ...a, ts: t, value: 100 + (t - T0) / 60_000 });
      pts.push({
        ...b,
        ts: t,
        value: t < T0 + 9 * HOUR + 17 * MINUTE ? 5_000 + (t - T0) / 30_000 : (t - T0) / 60_000 - 500,
      });
    }
    await store.write(pts);
    const unknown = { thingId: 3, metric: 'kwh' };
    for (const bucket of [
      { widthMs: HOUR },
      { widthMs: 15 * MINUTE },
      { widthMs: DAY },
      { calendar: 'month' as const },
    ]) {
      for (const aggregator of ['delta', 'avg', 'count', 'last'] as const) {
        const query = {
          series: [a, unknown, b, a],
          start: T0 + 5 * HOUR,
          end: T0 + 2 * DAY,
          bucket,
          aggregator,
        };
        const columns = await store.bucketColumns(query);
        expect(bucketsOf(columns).buckets).toEqual((await store.buckets(query)).buckets);
        const n = columns.starts.length - 1;
        expect(columns.values.length).toBe(4 * n);
        expect(columns.values.subarray(0, n)).toEqual(columns.values.subarray(3 * n));
        await expectSameWithoutComplete(store, query);
      }
    }
    const hours = [T0 + 3 * HOUR, T0 + 9 * HOUR, T0 + 10 * HOUR, T0 + 21 * HOUR];
    const query = {
      series: [b],
      start: T0,
      end: T0 + DAY,
      bucket: { widthMs: 15 * MINUTE },
      aggregator: 'delta' as const,
    };
    const all = (await store.buckets(query)).buckets;
    const some = (await store.buckets({ ...query, hours })).buckets;
    const inHours = (ts: number) => hours.some((h) => ts >= h && ts < h + HOUR);
    expect(some.filter((x) => inHours(x.start))).toEqual(all.filter((x) => inHours(x.start)));
    expect(some.filter((x) => !inHours(x.start)).every((x) => x.value === null && x.count === 0)).toBe(true);
    await expectSameWithoutComplete(store, { ...query, hours });
    // Raw rows (minute buckets of the last hours, from memory and from disk) without `complete`.
    for (const start of [T0 + 2 * DAY - 2 * HOUR, T0 + 5 * HOUR]) {
      const raw = { ...query, start, end: start + HOUR, bucket: { widthMs: 30_000 } };
      await expectSameWithoutComplete(store, raw);
    }
  });

  describe('writes, restarts and retention', () => {
    const key = { thingId: 9, metric: 'v' };

    it('rejects points it cannot store, writing nothing of that call', async () => {
      const store = await openOn(wing);
      await expect(store.write([{ ...key, ts: T0, value: Number.NaN }])).rejects.toThrow(TelemetryWriteError);
      await expect(store.write([{ ...key, ts: T0 - 200 * DAY, value: 1 }])).rejects.toThrow(/retention/);
      await expect(store.write([{ ...key, ts: T0 + 0.5, value: 1 }])).rejects.toThrow(/ts must be/);
      await expect(
        store.write([
          { ...key, ts: T0, value: 1 },
          { ...key, ts: -1, value: 1 },
        ]),
      ).rejects.toThrow(/ts must be/);
      expect(store.latest([key])).toEqual([]);
      expect(store.writableFrom(T0 + 100 * DAY)).toBe(T0 + 10 * DAY);
    });

    it('writeBatch stores what write stores, a resent time replaced, and refuses the same points', async () => {
      const cols = await openOn(wing);
      const objs = await openOn(wing);
      const metrics = ['v', 'w'];
      const rows: [metric: number, ts: number, value: number][] = [
        [0, T0 + 20_000, 2],
        [1, T0, 7],
        [0, T0, 1],
        [0, T0 + 10_000, 1.5],
        [1, T0 + 10_000, 8],
        [0, T0 + 20_000, 3], // resent: the last written wins
      ];
      const batch = {
        thingId: 9,
        metrics,
        metric: Uint32Array.from(rows.map((r) => r[0])),
        ts: Float64Array.from(rows.map((r) => r[1])),
        values: Float64Array.from(rows.map((r) => r[2])),
      };
      await cols.writeBatch(batch);
      await objs.write(
        rows.map(([m, ts, value]) => ({ thingId: 9, metric: metrics[m] as string, ts, value })),
      );
      for (const metric of metrics) {
        const k = { thingId: 9, metric };
        expect(await cols.points(k, T0, T0 + MINUTE, 10)).toEqual(await objs.points(k, T0, T0 + MINUTE, 10));
      }
      expect((await cols.points(key, T0, T0 + MINUTE, 10)).map((p) => p.value)).toEqual([1, 1.5, 3]);
      expect(cols.latest([{ thingId: 9, metric: 'w' }])).toEqual([
        { thingId: 9, metric: 'w', ts: T0 + 10_000, value: 8 },
      ]);
      const bad = { ...batch, values: Float64Array.from([1, 2, Number.NaN, 4, 5, 6]) };
      await expect(cols.writeBatch(bad)).rejects.toThrow(/value must be a finite number/);
      const old = { ...batch, ts: Float64Array.from([T0, T0 - 200 * DAY, T0, T0, T0, T0]) };
      await expect(cols.writeBatch(old)).rejects.toThrow(/retention/);
      expect(await cols.points(key, T0, T0 + MINUTE, 10)).toHaveLength(3);
    });

    it('stores any metric identifier (quotes, backslashes, spaces, Chinese) as it is', async () => {
      const store = await openOn(wing);
      const odd = { thingId: 12, metric: 'a"b\\c 温度{x="1"}' };
      await store.write([
        { ...odd, ts: T0, value: 1.5 },
        { ...odd, ts: T0 + 1000, value: 2.5 },
        { ...key, ts: T0, value: 9 },
      ]);
      expect((await store.points(odd, T0, T0 + MINUTE, 10)).map((p) => [p.metric, p.value])).toEqual([
        [odd.metric, 1.5],
        [odd.metric, 2.5],
      ]);
      const r = await store.buckets({
        series: [odd],
        start: T0,
        end: T0 + MINUTE,
        bucket: { widthMs: MINUTE },
        aggregator: 'sum',
      });
      expect(r.buckets[0]?.value).toBe(4);
    });

    it('keeps latest values and when each thing was last seen on write, and after a restart', async () => {
      const now = () => T0 + 5 * DAY;
      const a = await wing.open({ timeZone: 'UTC', now, key: `latest ${wing.name}` });
      await a.write([
        { ...key, ts: T0, value: 1 },
        { ...key, ts: T0 + 20 * HOUR, value: 2 },
        { thingId: 10, metric: 'w', ts: T0 + 5, value: 3 },
      ]);
      await a.write([{ ...key, ts: T0 + HOUR, value: 9 }]); // late: not the latest
      expect(a.latest([key])).toEqual([{ ...key, ts: T0 + 20 * HOUR, value: 2 }]);
      expect(a.lastSeen().get(9)?.ts).toBe(T0 + 20 * HOUR);
      await a.close();
      const b = await openOn(wing, { timeZone: 'Asia/Shanghai', now, key: `latest ${wing.name}` });
      expect(b.latest([key, { thingId: 10, metric: 'w' }, { thingId: 11, metric: 'w' }])).toEqual([
        { ...key, ts: T0 + 20 * HOUR, value: 2 },
        { thingId: 10, metric: 'w', ts: T0 + 5, value: 3 },
      ]);
      expect([...b.lastSeen().keys()].sort()).toEqual([10, 9]);
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

    it('retention never loses day totals or the latest value', async () => {
      let now = T0 + DAY;
      const store = await openOn(wing, { now: () => now });
      await store.write([
        { ...key, ts: T0, value: 4 },
        { ...key, ts: T0 + 30 * MINUTE, value: 6 },
      ]);
      for (const days of [100, 500, 2000]) {
        now = T0 + days * DAY;
        await store.applyRetention(now);
        const day = await store.buckets({
          series: [key],
          start: T0,
          end: T0 + DAY,
          bucket: { widthMs: DAY },
          aggregator: 'sum',
        });
        expect(day.buckets[0]?.value).toBe(10);
        expect(store.latest([key])[0]?.value).toBe(6);
      }
    });

    it('pointColumns reads several series as points() reads each, page by page after a full one', async () => {
      const store = await openOn(wing, { now: () => T0 + 2 * HOUR });
      const keys: SeriesKey[] = [
        { thingId: 7, metric: 'kwh' },
        { thingId: 404, metric: 'kwh' },
        { thingId: 3, metric: 'kwh' },
        { thingId: 5, metric: 'kwh' },
      ];
      const rnd = random(11);
      const written: Point[] = [];
      for (const k of [keys[0], keys[2], keys[3]] as SeriesKey[])
        for (let t = T0 + k.thingId * 1000; t < T0 + 20 * MINUTE; t += 20_000 + Math.floor(rnd() * 40_000))
          written.push({ ...k, ts: t, value: Math.floor(rnd() * 400) / 4 });
      await store.write(written);
      const [from, to] = [T0 + 3 * MINUTE, T0 + 17 * MINUTE];
      const out: Point[][] = keys.map(() => []);
      let resumeAt = 0;
      let after: number | undefined;
      for (;;) {
        const page = await store.pointColumns(keys.slice(resumeAt), from, to, 7, after);
        page.ts.forEach((ts, r) => {
          const i = resumeAt + (page.index[r] as number);
          out[i]?.push({ ...(keys[i] as SeriesKey), ts, value: page.values[r] as number });
        });
        if (page.ts.length < 7) break;
        resumeAt += page.index[page.ts.length - 1] as number;
        after = page.ts[page.ts.length - 1];
      }
      const each = await Promise.all(keys.map((k) => store.points(k, from, to, 1000)));
      expect(each.reduce((n, p) => n + p.length, 0)).toBeGreaterThan(30);
      expect(out).toEqual(each);
    });

    it('pointColumns pages through many series (more than one read of them) in the order asked', async () => {
      const store = await openOn(wing, { now: () => T0 + 2 * HOUR });
      const keys: SeriesKey[] = Array.from({ length: 40 }, (_, i) => ({
        thingId: 100 + ((i * 7) % 40),
        metric: 'kwh',
      }));
      const written: Point[] = [];
      keys.forEach((k, i) => {
        for (let t = T0 + i * 100; t < T0 + 10 * MINUTE; t += 60_000 + i * 1000)
          written.push({ ...k, ts: t, value: i + t / 1e6 });
      });
      await store.write(written);
      const [from, to] = [T0 + MINUTE, T0 + 9 * MINUTE];
      const out: Point[][] = keys.map(() => []);
      let resumeAt = 0;
      let after: number | undefined;
      let pages = 0;
      for (;;) {
        const page = await store.pointColumns(keys.slice(resumeAt), from, to, 50, after);
        pages++;
        page.ts.forEach((ts, r) => {
          const i = resumeAt + (page.index[r] as number);
          out[i]?.push({ ...(keys[i] as SeriesKey), ts, value: page.values[r] as number });
        });
        if (page.ts.length < 50) break;
        resumeAt += page.index[page.ts.length - 1] as number;
        after = page.ts[page.ts.length - 1];
      }
      const each = await Promise.all(keys.map((k) => store.points(k, from, to, 1000)));
      const total = each.reduce((n, p) => n + p.length, 0);
      expect(total).toBeGreaterThan(200);
      expect(pages).toBe(Math.floor(total / 50) + 1);
      expect(out).toEqual(each);
    });

    it('downsamples to at most maxPoints of real points, keeping the extremes', async () => {
      const store = await openOn(wing, { now: () => T0 + 10 * DAY });
      const pts: Point[] = [];
      for (let t = T0; t < T0 + 2 * DAY; t += 10_000) pts.push({ ...key, ts: t, value: (t / 10_000) % 97 });
      await store.write(pts);
      const out = await (store.downsample?.(key, T0, T0 + 2 * DAY, 200) ?? Promise.resolve([]));
      expect(out.length).toBeLessThanOrEqual(200);
      expect(out.length).toBeGreaterThan(50);
      for (const p of out) expect(pts.find((x) => x.ts === p.ts)?.value).toBe(p.value);
      expect(Math.max(...out.map((p) => p.value))).toBe(96);
      expect(Math.min(...out.map((p) => p.value))).toBe(0);
      expect(await store.downsample?.(key, T0, T0 + 10 * MINUTE, 100)).toHaveLength(60);
    });
  });

  describe('the worked examples of docs/metering.md (store level)', () => {
    const kwh = { thingId: 40, metric: 'EP' };
    /** Local midnight in Asia/Shanghai. */
    const midnight = (date: string) => Date.parse(`${date}T00:00:00+08:00`);
    const hourOf = (t: number) => new Date(t + 8 * HOUR).getUTCHours();
    function readings(
      from: number,
      to: number,
      step: number,
      start: number,
      energy: (s: number) => number,
      skip = (_t: number) => false,
    ): Point[] {
      const out: Point[] = [];
      let value = start;
      for (let t = from; t <= to; t += step) {
        if (t > from) value += energy(t - step);
        if (!skip(t)) out.push({ ...kwh, ts: t, value });
      }
      return out;
    }
    const values = async (store: OpenedTelemetryStore, start: number, end: number, bucket: BucketSpec) =>
      (await store.buckets({ series: [kwh], start, end, bucket, aggregator: 'delta' })).buckets.map(
        (b) => b.value,
      );
    const now = () => Date.UTC(2026, 10, 20);

    it('1. a day of 1-minute readings: 24 hours and 2,190 kWh', async () => {
      const store = await openOn(wing, { timeZone: 'Asia/Shanghai', now });
      const d = midnight('2026-10-14');
      const perMinute = (s: number) => {
        const h = hourOf(s);
        return h < 8 ? 1 : h < 10 ? 2 : h < 12 ? 3 : h < 17 ? 2 : h < 22 ? 1.5 : 0.5;
      };
      await store.write(readings(d, d + DAY, MINUTE, 10_000, perMinute));
      const hours = await values(store, d, d + DAY, { widthMs: HOUR });
      expect(hours).toEqual([
        60, 60, 60, 60, 60, 60, 60, 60, 120, 120, 180, 180, 120, 120, 120, 120, 120, 90, 90, 90, 90, 90, 30,
        30,
      ]);
      expect(await values(store, d, d + DAY, { widthMs: DAY })).toEqual([2190]);
    });

    it('2. a month of 15-minute readings: 31 days of 1,880 kWh', async () => {
      const store = await openOn(wing, { timeZone: 'Asia/Shanghai', now });
      const perQuarter = (s: number) => {
        const h = hourOf(s);
        return h < 8 || h >= 22 ? 10 : h < 10 || h >= 17 ? 20 : h < 12 ? 40 : 30;
      };
      const from = midnight('2026-10-01');
      const to = midnight('2026-11-01');
      await store.write(readings(from, to, 15 * MINUTE, 0, perQuarter));
      const days = await values(store, from, to, { widthMs: DAY });
      expect(days).toEqual(new Array(31).fill(1880));
      expect(await values(store, from, to, { calendar: 'month' })).toEqual([58_280]);
      const tip = await values(
        store,
        midnight('2026-10-14') + 10 * HOUR,
        midnight('2026-10-14') + 12 * HOUR,
        { widthMs: 2 * HOUR },
      );
      expect(tip).toEqual([320]);
    });

    it('3. a meter replaced mid-day: hour 11 is 27.5, the day 717.5', async () => {
      const store = await openOn(wing, { timeZone: 'Asia/Shanghai', now });
      const d = midnight('2026-10-20');
      const old = readings(d, d + 11 * HOUR + 50 * MINUTE, 10 * MINUTE, 5000, () => 5);
      const fresh = readings(d + 12 * HOUR, d + DAY, 10 * MINUTE, 2.5, () => 5);
      await store.write([...old, ...fresh]);
      const hours = await values(store, d, d + DAY, { widthMs: HOUR });
      expect(hours[11]).toBe(27.5);
      expect(hours.filter((h, i) => i !== 11 && h !== 30)).toEqual([]);
      expect(await values(store, d, d + DAY, { widthMs: DAY })).toEqual([717.5]);
    });

    it('4. a gap across midnight: the gap is the day of the reading that ends it', async () => {
      const store = await openOn(wing, { timeZone: 'Asia/Shanghai', now });
      const d = midnight('2026-10-21');
      const gap = (t: number) => t > d + 22 * HOUR + 30 * MINUTE && t < d + DAY + 90 * MINUTE;
      await store.write(readings(d, d + 2 * DAY, 15 * MINUTE, 0, () => 20, gap));
      const hours = await values(store, d + 22 * HOUR, d + DAY + 2 * HOUR, { widthMs: HOUR });
      expect(hours).toEqual([40, null, null, 280]);
      expect(await values(store, d, d + 2 * DAY, { widthMs: DAY })).toEqual([1800, 2040]);
    });

    it('the 23- and 25-hour days of Europe/Berlin have 23 and 25 hourly deltas that add up to the day', async () => {
      const berlin = new PlantCalendar('Europe/Berlin');
      for (const date of ['2026-03-29', '2026-10-25']) {
        const store = await openOn(wing, {
          timeZone: 'Europe/Berlin',
          now: () => Date.parse(`${date}T12:00:00Z`) + 30 * DAY,
        });
        const d = berlin.dayStart(berlin.dayOf(Date.parse(`${date}T12:00:00Z`)));
        const e = berlin.dayStart(berlin.dayOf(d) + 1);
        await store.write(readings(d - HOUR, e + HOUR, 5 * MINUTE, 1000, () => 0.25));
        const hours = await values(store, d, e, { widthMs: HOUR });
        expect(hours).toHaveLength(date === '2026-03-29' ? 23 : 25);
        expect(hours.every((h) => h === 3)).toBe(true);
        expect(await values(store, d, e, { widthMs: DAY })).toEqual([hours.length * 3]);
      }
    });

    it('comparisons: the same local day a week and a month earlier, on shifted ranges', async () => {
      const store = await openOn(wing, { timeZone: 'Asia/Shanghai', now });
      const from = midnight('2026-09-01');
      const to = midnight('2026-10-16');
      await store.write(readings(from, to, 30 * MINUTE, 0, (s) => (s < midnight('2026-10-01') ? 1 : 2)));
      const cal = new PlantCalendar('Asia/Shanghai');
      const day = midnight('2026-10-15');
      const week = cal.shift(day, -7, 'day');
      const month = cal.shift(day, -1, 'month');
      expect(await values(store, day, day + DAY, { widthMs: DAY })).toEqual([96]);
      expect(await values(store, week, week + DAY, { widthMs: DAY })).toEqual([96]);
      expect(await values(store, month, month + DAY, { widthMs: DAY })).toEqual([48]);
    });
  });
});

describe.skipIf(WINGS.length < 2)('the wings agree', () => {
  it('every answer of the random datasets is the same on DuckDB and VictoriaMetrics', () => {
    for (const zone of ['Asia/Shanghai', 'America/New_York', 'Asia/Kolkata']) {
      const d = answers.get(`duckdb ${zone}`);
      const v = answers.get(`victoria ${zone}`);
      expect(d && v, zone).toBeTruthy();
      for (const [q, buckets] of d ?? []) expect(v?.get(q), `${zone} ${q}`).toEqual(buckets);
    }
  });
});
