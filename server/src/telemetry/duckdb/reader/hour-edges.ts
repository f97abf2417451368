import { HOUR } from '@kilowatch/contract/calendar';
import type { Grid } from '../../buckets.ts';
import { int } from '../schema.ts';

/**
 * A counter read in a few hours only (a quarter-hour tariff's cut hours) also needs the reading
 * stamped on the start of the hour after each, which closes the hour's last bucket. Where every
 * hour start is a bucket start, those are the hour starts not asked for themselves, and only
 * their `inc_edge` is wanted (their own buckets stay empty). The hour rows hold it: an hour row's
 * `inc_edge` is that of its minute row on the hour's start (`rollupAggregates`). Asking the minute
 * rows instead took a second IN list over every minute row of the range, which made the read half
 * as dear again (bench/README.md, "Issue 19 measured a third time"). Null when the grid does not
 * allow it (the caller then reads those rows with the others).
 */
export function hourStartsAfter(g: Grid, hours: readonly number[]): number[] | null {
  if (g.kind !== 'fixed' || HOUR % g.width !== 0 || g.base % g.width !== 0) return null;
  const asked = new Set(hours);
  return [...asked].map((h) => h + HOUR).filter((h) => !asked.has(h));
}

/**
 * Rows of the hour rollup at `starts` in [lo, hi], shaped as the bucket read's rows (series,
 * bucket index, count 0, no value, no last sample, no gap, the edge's increment), to be added to
 * it with UNION ALL: one statement and one round trip instead of two (bench/README.md, "Issue 19
 * measured a fifth time"). Null when none of them is in the range.
 */
export function hourEdgesSql(ids: string, g: Extract<Grid, { kind: 'fixed' }>, starts: readonly number[]) {
  const lo = g.base;
  const hi = g.base + g.n * g.width;
  const wanted = starts.filter((t) => t >= lo && t <= hi);
  if (wanted.length === 0) return null;
  return `SELECT series_id::DOUBLE, ((bucket - ${int(lo)}) // ${int(g.width)})::DOUBLE, 0::DOUBLE, 'NaN'::DOUBLE,
      'NaN'::DOUBLE, 0::DOUBLE, coalesce(inc_edge, 'NaN')
    FROM hour WHERE series_id IN (${ids}) AND bucket >= ${int(lo)} AND bucket <= ${int(hi)} AND bucket IN (${wanted.map(int).join(',')})`;
}
