/**
 * The reference the telemetry tests check a store against: random datasets (late, resent and
 * concurrent writes among them) and each bucket computed by brute force over the points. Used by
 * the conformance suite (both wings) and the DuckDB wing's rollup test.
 */
import { DAY, HOUR, MINUTE, PlantCalendar } from '@kilowatch/contract/calendar';
import { counterIncrement } from '../counter.ts';
import type { Bucket, BucketAggregator, BucketSpec, Point, SeriesKey, TelemetryStore } from '../store.ts';

/** Bucket layouts the hour and day rows answer (a whole hour and wider, calendar months and years). */
export const HOUR_AND_WIDER: readonly BucketSpec[] = [
  { widthMs: HOUR },
  { widthMs: 2 * HOUR },
  { widthMs: 6 * HOUR },
  { widthMs: DAY },
  { widthMs: 2 * DAY },
  { calendar: 'month' },
  { calendar: 'year' },
];

/** Deterministic pseudo-random numbers (mulberry32). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The reference: one bucket by brute force. Gauges take the samples in [bs, be); a counter's delta
 * the increments of the readings in (bs, be], each from the reading before it (interval-ending).
 */
export function brute(
  pts: readonly { ts: number; value: number }[],
  bs: number,
  be: number,
  agg: BucketAggregator,
  info: { firstTs: number | null; gapToleranceMs: number },
  now: number,
): Pick<Bucket, 'value' | 'count' | 'complete'> {
  // Points are sorted by time: only those around the bucket are looked at.
  const firstAt = (t: number, after: boolean) => {
    let lo = 0;
    let hi = pts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const x = (pts[mid] as { ts: number }).ts;
      if (after ? x <= t : x < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const i0 = firstAt(bs, false);
  const i1 = firstAt(be, false);
  const prev = pts[i0 - 1];
  const inside = pts.slice(i0, i1);
  let closing = 0;
  let closed = 0;
  for (let i = firstAt(bs, true); i < firstAt(be, true); i++) {
    closing++;
    closed += counterIncrement(pts[i - 1]?.value, (pts[i] as { value: number }).value);
  }
  if (agg === 'delta' && closing === 0) return { value: null, count: 0, complete: false };
  if (inside.length === 0) {
    return agg === 'delta'
      ? { value: closed, count: closing, complete: false }
      : { value: agg === 'count' ? 0 : null, count: 0, complete: false };
  }
  let sum = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let maxGap = 0;
  let p = prev;
  for (const x of inside) {
    sum += x.value;
    min = Math.min(min, x.value);
    max = Math.max(max, x.value);
    if (p) maxGap = Math.max(maxGap, x.ts - p.ts);
    p = x;
  }
  const n = inside.length;
  const value = {
    avg: sum / n,
    sum,
    max,
    min,
    count: n,
    first: (inside[0] as { value: number }).value,
    last: (inside[n - 1] as { value: number }).value,
    delta: closed,
  }[agg];
  const complete =
    be <= now &&
    info.firstTs !== null &&
    info.firstTs <= bs &&
    maxGap <= info.gapToleranceMs &&
    be - (inside[n - 1] as { ts: number }).ts <= info.gapToleranceMs;
  return { value, count: agg === 'delta' ? closing : n, complete };
}

/** Random series: irregular spacing, some readings on bucket edges, rare long gaps, dyadic values (sums exact in any order), counters with resets. */
export function dataset(
  seed: number,
  start: number,
  days: number,
  /** The usual step between readings: at least minStepMs, up to minStepMs + spreadMs. */
  { minStepMs = 2000, spreadMs = 38_000 }: { minStepMs?: number; spreadMs?: number } = {},
) {
  const rnd = random(seed);
  const series: (SeriesKey & { pts: { ts: number; value: number }[] })[] = [
    { thingId: 1, metric: 'energy', pts: [] },
    { thingId: 1, metric: 'power', pts: [] },
    { thingId: 2, metric: 'temperature', pts: [] },
  ];
  for (const [k, s] of series.entries()) {
    let ts = start + Math.floor(rnd() * 5 * MINUTE) + k * 7000;
    let counter = Math.floor(rnd() * 4000) / 4;
    while (ts < start + days * DAY) {
      let value: number;
      if (s.metric === 'energy') {
        const r = rnd();
        if (r < 0.002)
          counter = Math.floor(rnd() * 40) / 4; // reset
        else if (r < 0.01)
          counter -= 0.25; // jitter
        else counter += Math.floor(rnd() * 40) / 4;
        value = counter;
      } else {
        value = Math.floor(rnd() * 8000 - 4000) / 4;
      }
      s.pts.push({ ts, value });
      ts +=
        rnd() < 0.002 ? 30 * MINUTE + Math.floor(rnd() * 3 * HOUR) : minStepMs + Math.floor(rnd() * spreadMs);
      // Some readings on a whole minute (and so on hour and day edges): they close the bucket before.
      if (rnd() < 0.1) ts = Math.ceil(ts / MINUTE) * MINUTE;
    }
  }
  return series;
}

/** Writes the points in shuffled chunks (late and out-of-order data), some concurrently, with a few resends. */
export async function writeShuffled(
  store: Pick<TelemetryStore, 'write'>,
  points: Point[],
  seed: number,
): Promise<void> {
  const rnd = random(seed);
  const chunks: Point[][] = [];
  for (let i = 0; i < points.length; ) {
    const n = 1 + Math.floor(rnd() * 4000);
    chunks.push(points.slice(i, i + n));
    i += n;
  }
  for (let i = 0; i < chunks.length; i++) {
    const j = Math.min(chunks.length - 1, i + Math.floor(rnd() * 4));
    [chunks[i], chunks[j]] = [chunks[j] as Point[], chunks[i] as Point[]];
  }
  for (let i = 0; i < chunks.length; i += 3) {
    await Promise.all(chunks.slice(i, i + 3).map((c) => store.write(c)));
  }
  // Resend a few points: stored once, not counted twice.
  await store.write(points.filter((_, i) => i % 997 === 0));
}

export function interleave(series: ReturnType<typeof dataset>): Point[] {
  return series
    .flatMap((s) => s.pts.map((p) => ({ thingId: s.thingId, metric: s.metric, ts: p.ts, value: p.value })))
    .sort((a, b) => a.ts - b.ts);
}

export function nextStart(cal: PlantCalendar, bucket: BucketSpec, start: number): number {
  if ('widthMs' in bucket) {
    if (bucket.widthMs % DAY === 0) return cal.dayStart(cal.dayOf(start) + bucket.widthMs / DAY);
    return start + bucket.widthMs;
  }
  const m = PlantCalendar.monthOfDay(cal.dayOf(start)) + (bucket.calendar === 'month' ? 1 : 12);
  return cal.dayStart(PlantCalendar.firstDayOfMonth(m));
}
