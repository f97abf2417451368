import {
  bucketOfWidth,
  type CompareResult,
  type GroupByTime,
  MAX_EPOCH_MS,
  type MetricQuery,
  type QueryComparison,
  toMillis,
} from '@kilowatch/contract';
import { AppError } from '../../errors.ts';
import {
  type BucketSpec,
  bucketStart,
  bucketWidthFor,
  DAY,
  gridOf,
  HOUR,
  MINUTE,
  PlantCalendar,
} from '../../telemetry/index.ts';

/**
 * The time side of a query on the plant calendar: its range, its buckets (named or automatic,
 * from the one width table) and its comparison range. Pure: the service reads, this computes.
 */

/** Window of a query that names neither a period nor a start (spec §9: default history 1 hour). */
const DEFAULT_WINDOW_MS = HOUR;
const UNIT_MS = { second: 1000, minute: MINUTE, hour: HOUR, day: DAY } as const;

export interface Range {
  start: number;
  end: number;
}

/** The buckets of an answer: the store's spec, how many store buckets make one, and the answer's words. */
export interface Buckets {
  spec: BucketSpec;
  merge: number;
  /** Answer buckets over the range (an upper bound for fixed widths). */
  count: number;
  bucket: { groupByTime: GroupByTime; groupByInterval: number };
}

/** The time range of a query, [start, end): a calendar period around startTime (or now), or the given one. */
export function queryRange(q: MetricQuery, calendar: PlantCalendar, now: number): Range {
  if (q.period)
    return calendar.periodRange(q.period, q.startTime !== undefined ? toMillis(q.startTime) : now);
  const end = q.endTime !== undefined ? toMillis(q.endTime) : now;
  const start = q.startTime !== undefined ? toMillis(q.startTime) : end - DEFAULT_WINDOW_MS;
  return { start: Math.round(start), end: Math.round(end) };
}

/**
 * Automatic buckets: the narrowest width of the one table (contract BUCKET_WIDTHS, the store's
 * too) that keeps [start, end) at or under `maxPoints` buckets, at least a minute (the finest
 * rollup); past the table, whole days.
 */
export const autoWidth = ({ start, end }: Range, maxPoints: number): number =>
  bucketWidthFor((end - start) / maxPoints, { min: MINUTE });

/** The buckets of a query with groupByTime (`auto` picks its width for `maxPoints`). */
export function queryBuckets(
  q: MetricQuery,
  range: Range,
  calendar: PlantCalendar,
  maxPoints: number,
): Buckets {
  const { start, end } = range;
  if (q.groupByTime === 'auto' || q.groupByTime === undefined)
    return fixedBuckets(autoWidth(range, maxPoints), range);
  const n = q.groupByInterval ?? 1;
  const unit = q.groupByTime;
  if (unit === 'month' || unit === 'year') {
    const m0 = PlantCalendar.monthOfDay(calendar.dayOf(start));
    const m1 = PlantCalendar.monthOfDay(calendar.dayOf(end - 1));
    const stored = unit === 'month' ? m1 - m0 + 1 : Math.floor(m1 / 12) - Math.floor(m0 / 12) + 1;
    return {
      spec: { calendar: unit },
      merge: n,
      count: Math.ceil(stored / n),
      bucket: { groupByTime: unit, groupByInterval: n },
    };
  }
  return { ...fixedBuckets(n * UNIT_MS[unit], range), bucket: { groupByTime: unit, groupByInterval: n } };
}

/** Buckets of one width (ms): days and wider start at local midnight, narrower ones on a grid from it. */
export function fixedBuckets(width: number, { start, end }: Range): Buckets {
  return {
    spec: { widthMs: width },
    merge: 1,
    count: Math.ceil((end - start) / width) + 1,
    bucket: bucketOfWidth(width),
  };
}

/** The start of every answer bucket of [start, end), oldest first (merged runs start with their first). */
export function bucketKeys(calendar: PlantCalendar, buckets: Buckets, { start, end }: Range): number[] {
  const grid = gridOf(calendar, buckets.spec, start, end);
  const keys: number[] = [];
  for (let i = 0; i < grid.n; i += buckets.merge) keys.push(bucketStart(calendar, grid, i));
  return keys;
}

/** How far a comparison lies: exactly (`ms`), in local days or in calendar months. */
interface Shift {
  amount: number;
  unit: 'ms' | 'day' | 'month';
}

export interface CompareRange extends Range {
  shift: Shift;
  /** Local days added to line weekdays up (`align: 'weekday'`), −3…3. */
  alignDays: number;
}

const localWeekday = (calendar: PlantCalendar, ts: number) => (((calendar.dayOf(ts) + 4) % 7) + 7) % 7;

/**
 * The comparison range of a query (see contract QueryComparison): a shift, or a base period by its
 * start. Null when `compare` names neither.
 */
export function compareRange(
  q: MetricQuery,
  compare: QueryComparison,
  range: Range,
  calendar: PlantCalendar,
): CompareRange | null {
  let shift: Shift;
  if (compare.shift) {
    const { amount, unit } = compare.shift;
    shift =
      unit === 'hour'
        ? { amount: amount * HOUR, unit: 'ms' }
        : unit === 'week'
          ? { amount: amount * 7, unit: 'day' }
          : unit === 'year'
            ? { amount: amount * 12, unit: 'month' }
            : { amount, unit };
  } else if (compare.startTime !== undefined) {
    shift = shiftTo(q, range, toMillis(compare.startTime), calendar);
  } else {
    return null;
  }
  if (!withinCalendar(range.start, shift) || !withinCalendar(range.end, shift)) {
    throw new AppError('BAD_REQUEST', 400, {}, { message: 'query.compareOutOfRange' });
  }
  let start = calendar.shift(range.start, shift.amount, shift.unit);
  let end = q.period
    ? calendar.periodRange(q.period, start).end
    : Math.max(calendar.shift(range.end, shift.amount, shift.unit), start + 1);
  let alignDays = 0;
  if (compare.align === 'weekday' && shift.unit === 'month') {
    const d = (localWeekday(calendar, range.start) - localWeekday(calendar, start) + 7) % 7;
    alignDays = d > 3 ? d - 7 : d;
    start = calendar.shift(start, alignDays, 'day');
    end = calendar.shift(end, alignDays, 'day');
  }
  return { start, end, shift, alignDays };
}

/**
 * Whether `ts` moved by `shift` stays in the years the plant calendar reads (1970 to 9999): worked
 * in UTC, without the zone, which moves it by less than the two days of margin. A shift beyond
 * (−100,000 years) is a 400, not a RangeError from the zone's clock.
 */
function withinCalendar(ts: number, shift: Shift): boolean {
  const margin = 2 * DAY;
  let moved: number;
  if (shift.unit === 'month') {
    const at = new Date(ts);
    moved = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + shift.amount, at.getUTCDate());
  } else {
    moved = ts + shift.amount * (shift.unit === 'day' ? DAY : 1);
  }
  return Number.isFinite(moved) && moved >= margin && moved <= MAX_EPOCH_MS - margin;
}

/** The shift that moves the query's range to start at `at`, in the units its calendar counts. */
function shiftTo(q: MetricQuery, range: Range, at: number, calendar: PlantCalendar): Shift {
  const unit = q.period ?? q.groupByTime;
  if (unit === 'day') return { amount: calendar.dayOf(at) - calendar.dayOf(range.start), unit: 'day' };
  if (unit === 'month' || unit === 'year') {
    const month = (ts: number) => PlantCalendar.monthOfDay(calendar.dayOf(ts));
    const year = (ts: number) => Math.floor(month(ts) / 12);
    const amount = unit === 'year' ? (year(at) - year(range.start)) * 12 : month(at) - month(range.start);
    return { amount, unit: 'month' };
  }
  return { amount: at - range.start, unit: 'ms' };
}

/**
 * Comparison points on the query's axis. Buckets pair by position: the 3rd day of February with
 * the 3rd of March, hour 5 of one local day with hour 5 of another, DST or not (for an exact
 * shift of fixed buckets that is the bucket as far back). Raw points keep their distance from the
 * range's start. What has no counterpart (March 30 against February) is left out.
 */
export function alignPoints<P extends { key: number }>(
  points: readonly P[],
  keys: { base: readonly number[]; compare: readonly number[] } | null,
  range: Range,
  compared: Range,
): (P & { at: number })[] {
  const index = keys ? new Map(keys.compare.map((k, i) => [k, i])) : null;
  const out: (P & { at: number })[] = [];
  for (const p of points) {
    let key: number | undefined;
    if (index && keys) {
      const i = index.get(p.key);
      key = i === undefined ? undefined : keys.base[i];
    } else {
      key = p.key - compared.start + range.start;
      if (key >= range.end) key = undefined;
    }
    if (key !== undefined) out.push({ ...p, key, at: p.key });
  }
  return out;
}

export const compareAnswer = (compared: CompareRange, result: CompareResult['result']): CompareResult => ({
  startTime: compared.start,
  endTime: compared.end,
  shift: compared.shift,
  ...(compared.alignDays ? { alignDays: compared.alignDays } : {}),
  result,
});
