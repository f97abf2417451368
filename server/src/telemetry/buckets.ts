/**
 * What every backend needs to answer `buckets()` the same way: the bucket grid on the plant
 * calendar, which stored resolution tiles it, automatic widths (the one table, in the contract),
 * and when a bucket counts as complete. No storage here.
 */
import { bucketWidthFor } from '@kilowatch/contract/buckets';
import { DAY, HOUR, MINUTE, PlantCalendar } from '@kilowatch/contract/calendar';
import type { BucketSpec } from './store.ts';

export { bucketWidthFor };

/** At most this many buckets per query (series × buckets), so a typo cannot exhaust memory. */
export const MAX_BUCKETS = 2_000_000;
/** A gap is a step between samples longer than max(3 × the series' interval, this). */
const MIN_GAP_MS = 60_000;

/** Stored resolutions, finest first: `raw` is the points themselves, the rest are rollups. */
export const RESOLUTIONS = ['raw', 'minute', 'hour', 'day'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** Bucket layout of a query: fixed widths on a grid anchored at local midnight, or local days/months/years. */
export type Grid =
  | { kind: 'fixed'; base: number; width: number; n: number }
  | { kind: 'days'; d0: number; k: number; n: number }
  | { kind: 'month' | 'year'; m0: number; n: number };

export const floorTo = (ts: number, unit: number): number => Math.floor(ts / unit) * unit;
export const ceilTo = (ts: number, unit: number): number => Math.ceil(ts / unit) * unit;

/** The buckets of [start, end) for a bucket spec, on the plant calendar. */
export function gridOf(cal: PlantCalendar, bucket: BucketSpec, start: number, end: number): Grid {
  if ('calendar' in bucket) {
    const m0 = PlantCalendar.monthOfDay(cal.dayOf(start));
    const m1 = PlantCalendar.monthOfDay(cal.dayOf(end - 1));
    if (bucket.calendar === 'month') return { kind: 'month', m0, n: m1 - m0 + 1 };
    const y0 = Math.floor(m0 / 12);
    return { kind: 'year', m0: y0 * 12, n: Math.floor(m1 / 12) - y0 + 1 };
  }
  const w = bucket.widthMs;
  if (!Number.isSafeInteger(w) || w <= 0)
    throw new RangeError(`bucket width must be a positive integer of ms, got ${w}`);
  if (w % DAY === 0) {
    const d0 = cal.dayOf(start);
    const k = w / DAY;
    return { kind: 'days', d0, k, n: Math.floor((cal.dayOf(end - 1) - d0) / k) + 1 };
  }
  const anchor = cal.startOfDay(start);
  const i0 = Math.floor((start - anchor) / w);
  const i1 = Math.ceil((end - anchor) / w);
  return { kind: 'fixed', base: anchor + i0 * w, width: w, n: i1 - i0 };
}

/** Start (ms) of bucket `i` of a grid; `i = n` is the end of the last one. */
export function bucketStart(cal: PlantCalendar, g: Grid, i: number): number {
  switch (g.kind) {
    case 'fixed':
      return g.base + i * g.width;
    case 'days':
      return cal.dayStart(g.d0 + i * g.k);
    case 'month':
      return cal.dayStart(PlantCalendar.firstDayOfMonth(g.m0 + i));
    case 'year':
      return cal.dayStart(PlantCalendar.firstDayOfMonth(g.m0 + i * 12));
  }
}

/** The coarsest stored resolution whose buckets tile this grid exactly. */
export function resolutionFor(g: Grid): Resolution {
  if (g.kind !== 'fixed') return 'day';
  if (g.width % HOUR === 0 && g.base % HOUR === 0) return 'hour';
  if (g.width % MINUTE === 0 && g.base % MINUTE === 0) return 'minute';
  return 'raw';
}

/** Gap tolerance of a series: max(3 × its typical interval, MIN_GAP_MS). */
export function gapTolerance(intervalMs: number | null): number {
  return Math.max(3 * (intervalMs ?? 0), MIN_GAP_MS);
}

/**
 * Typical spacing of a series after a run of in-order samples (`ts` ascending, all after
 * `latestTs`): an exponential average of the steps, each capped at 4 × the estimate so a gap moves
 * it little (a real change of rate moves it within tens of samples).
 */
export function nextInterval(
  est: number | null,
  latestTs: number | null,
  ts: readonly number[],
): number | null {
  // NaN for none in the loop: a `number | null` written per sample boxed a heap number each time.
  let e = est ?? Number.NaN;
  let prev = latestTs ?? Number.NaN;
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i] as number;
    if (!Number.isNaN(prev)) {
      const d = t - prev;
      e = Number.isNaN(e) ? d : e + 0.1 * (Math.min(d, 4 * e) - e);
    }
    prev = t;
  }
  return Number.isNaN(e) ? null : e;
}
