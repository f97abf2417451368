import { DAY, HOUR, MINUTE, SECOND } from './calendar.ts';

/**
 * The one table of automatic bucket widths, ms, finest first: the telemetry store's
 * downsampling, the query layer's automatic buckets and (next) the console's history windows
 * pick from it, so a chart's buckets are the same whoever chooses them. Day and wider buckets
 * start at local midnight in the plant's zone (see PlantCalendar).
 */
export const BUCKET_WIDTHS: readonly number[] = [
  SECOND,
  2 * SECOND,
  5 * SECOND,
  10 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
];

/**
 * The narrowest width of the table that is at least `need` ms, within [`min`, `max`] of the
 * table; past `max`, whole days.
 * @example bucketWidthFor(25 * 60_000) // 30 min
 * @example bucketWidthFor(90_000, { min: 60_000, max: 86_400_000 }) // 2 min
 */
export function bucketWidthFor(need: number, limits: { min?: number; max?: number } = {}): number {
  const min = limits.min ?? 0;
  const max = limits.max ?? Number.POSITIVE_INFINITY;
  for (const w of BUCKET_WIDTHS) {
    if (w > max) break;
    if (w >= need && w >= min) return w;
  }
  return Math.ceil(need / DAY) * DAY;
}

/**
 * A bucket width in the query's words: the largest unit of GroupByTime that divides it.
 * @example bucketOfWidth(30 * 60_000) // { groupByTime: 'minute', groupByInterval: 30 }
 */
export function bucketOfWidth(width: number): {
  groupByTime: 'second' | 'minute' | 'hour' | 'day';
  groupByInterval: number;
} {
  for (const [unit, ms] of [
    ['day', DAY],
    ['hour', HOUR],
    ['minute', MINUTE],
  ] as const) {
    if (width % ms === 0) return { groupByTime: unit, groupByInterval: width / ms };
  }
  return { groupByTime: 'second', groupByInterval: Math.max(1, Math.round(width / SECOND)) };
}
