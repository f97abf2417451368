/**
 * Hour and day buckets from the rollup rows in memory (rollup-cache.ts): the rows of series not
 * held are fetched once, from the range's start on, and kept; the grid's buckets are then folded
 * in JS the way the SQL path groups the stored rows (rollupValue, rollupAggregates).
 */
import { HOUR, PlantCalendar } from '@kilowatch/contract/calendar';
import { floorTo, type Grid } from '../../buckets.ts';
import type { BucketAggregator } from '../../store.ts';
import {
  CACHED_COLUMNS,
  type CachedRows,
  firstAtOrAfter,
  type Level,
  ROW_BYTES,
  rowsOf,
} from '../rollup-cache.ts';
import { doubleColumns, int } from '../schema.ts';
import type { SeriesState } from '../series.ts';
import type { ReadContext } from './context.ts';

/**
 * Each series' rows of `level` from `lo` on, from memory or fetched and kept; null when they are
 * too many to keep (the caller reads them in SQL).
 */
export async function cachedRows(
  ctx: ReadContext,
  known: readonly SeriesState[],
  level: Level,
  lo: number,
): Promise<CachedRows[] | null> {
  const cache = ctx.rollups;
  if (cache.maxBytes === 0) return null;
  const out = known.map((st) => cache.get(level, st.id, lo));
  const missing = known.filter((_, i) => out[i] === undefined);
  if (missing.length === 0) return out as CachedRows[];
  // At most a row per hour or day from `lo` to the series' newest sample.
  let rows = 0;
  for (const st of missing) {
    if (st.latestTs === null) continue;
    const top = level === 'hour' ? floorTo(st.latestTs, HOUR) : ctx.calendar.dayOf(st.latestTs);
    rows += Math.max(0, (top - lo) / (level === 'hour' ? HOUR : 1) + 1);
  }
  if (rows * ROW_BYTES > cache.maxBytes / 4) return null;
  const readAt = cache.startRead();
  try {
    const [sid, ...columns] = await ctx.reader().run((c) =>
      doubleColumns(
        c,
        `SELECT series_id::DOUBLE, ${CACHED_COLUMNS} FROM ${level}
           WHERE series_id IN (${missing.map((st) => int(st.id)).join(',')}) AND bucket >= ${int(lo)}
           ORDER BY series_id, bucket`,
      ),
    );
    const ids = sid as Float64Array;
    const fetched = new Map<number, CachedRows>();
    for (let i = 0; i < ids.length; ) {
      const id = ids[i] as number;
      let j = i + 1;
      while (j < ids.length && ids[j] === id) j++;
      fetched.set(id, rowsOf(columns, i, j));
      i = j;
    }
    known.forEach((st, i) => {
      if (out[i] === undefined)
        out[i] = cache.install(level, st.id, lo, fetched.get(st.id) ?? rowsOf(columns, 0, 0), readAt);
    });
  } finally {
    cache.endRead(readAt);
  }
  return out as CachedRows[];
}

/** Where a rollup row falls on the grid: its bucket's index, and whether it starts that bucket. */
function placer(g: Grid): { index(key: number): number; starts(key: number, b: number): boolean } {
  switch (g.kind) {
    case 'fixed':
      return {
        index: (key) => Math.floor((key - g.base) / g.width),
        starts: (key, b) => key === g.base + b * g.width,
      };
    case 'days':
      return {
        index: (key) => Math.floor((key - g.d0) / g.k),
        starts: (key) => (key - g.d0) % g.k === 0,
      };
    case 'month':
    case 'year': {
      const months = g.kind === 'year' ? 12 : 1;
      // First days of the n buckets and of the one after them.
      const firstDays = Array.from({ length: g.n + 2 }, (_, i) =>
        PlantCalendar.firstDayOfMonth(g.m0 + i * months),
      );
      return {
        index: (key) => {
          let b = 0;
          while ((firstDays[b + 1] as number) <= key) b++;
          return b;
        },
        starts: (key, b) => key === firstDays[b],
      };
    }
  }
}

/** The stored range of a day-level grid in day numbers, or of an hour grid in ms: [lo, hi). */
export function rowRange(g: Grid): { lo: number; hi: number } {
  switch (g.kind) {
    case 'fixed':
      return { lo: g.base, hi: g.base + g.n * g.width };
    case 'days':
      return { lo: g.d0, hi: g.d0 + g.n * g.k };
    case 'month':
      return { lo: PlantCalendar.firstDayOfMonth(g.m0), hi: PlantCalendar.firstDayOfMonth(g.m0 + g.n) };
    case 'year':
      return { lo: PlantCalendar.firstDayOfMonth(g.m0), hi: PlantCalendar.firstDayOfMonth(g.m0 + g.n * 12) };
  }
}

/**
 * A bucket's value for `aggregator` from its aggregates, as `rollupValue` says it in SQL: the sum
 * for avg (divided by the count later, over the buckets merged), the increment for delta.
 */
export const aggregatorValue = (
  aggregator: BucketAggregator,
  sum: number,
  min: number,
  max: number,
  first: number,
  last: number,
  inc: number,
): number => {
  switch (aggregator) {
    case 'avg':
    case 'sum':
      return sum;
    case 'min':
      return min;
    case 'max':
      return max;
    case 'first':
      return first;
    case 'last':
      return last;
    case 'delta':
      return inc;
    default:
      return Number.NaN;
  }
};

/**
 * Folds each series' rows (in `known`'s order, row r of the outputs) over the grid's `n` buckets,
 * as the SQL over stored rows does: count, the aggregator's value (NaN for none), the last
 * sample's time and the longest gap (when `wantComplete`), and in `edges` (when a counter's delta
 * is asked) the increment of the reading on each bucket's start, the range's end included.
 */
export function foldRows(
  rows: readonly CachedRows[],
  g: Grid,
  aggregator: BucketAggregator,
  out: { cnt: Float64Array; value: Float64Array; lastTs: Float64Array; maxGap: Float64Array },
  edges: Float64Array | null,
  wantComplete: boolean,
): void {
  const n = g.n;
  const { lo, hi } = rowRange(g);
  const place = placer(g);
  rows.forEach((c, r) => {
    // A counter's last bucket also takes the reading stamped on the range's end (keys are integers).
    const to = firstAtOrAfter(c, edges ? hi + 1 : hi);
    let i = firstAtOrAfter(c, lo);
    while (i < to) {
      const b = place.index(c.bucket[i] as number);
      let cnt = 0;
      let sum = 0;
      let inc = 0;
      let min = Number.POSITIVE_INFINITY;
      let max = Number.NEGATIVE_INFINITY;
      const first = c.first[i] as number;
      let last = Number.NaN;
      let lastTs = Number.NEGATIVE_INFINITY;
      let maxGap = 0;
      let edge = Number.NaN;
      for (; i < to; i++) {
        const key = c.bucket[i] as number;
        if (place.index(key) !== b) break;
        cnt += c.cnt[i] as number;
        sum += c.sum[i] as number;
        inc += c.inc[i] as number;
        if ((c.min[i] as number) < min) min = c.min[i] as number;
        if ((c.max[i] as number) > max) max = c.max[i] as number;
        last = c.last[i] as number;
        if ((c.lastTs[i] as number) > lastTs) lastTs = c.lastTs[i] as number;
        if ((c.maxGap[i] as number) > maxGap) maxGap = c.maxGap[i] as number;
        if (place.starts(key, b)) edge = c.edge[i] as number;
      }
      if (edges) edges[r * (n + 1) + b] = edge;
      if (b >= n) continue;
      const at = r * n + b;
      out.cnt[at] = cnt;
      out.value[at] = aggregatorValue(aggregator, sum, min, max, first, last, inc);
      if (wantComplete) {
        out.lastTs[at] = lastTs;
        out.maxGap[at] = maxGap;
      }
    }
  });
}
