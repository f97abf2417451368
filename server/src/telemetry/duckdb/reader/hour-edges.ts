import { HOUR } from '@kilowatch/contract/calendar';
import type { Grid } from '../../buckets.ts';
import { doubleColumns, int } from '../schema.ts';
import type { ReadContext } from './context.ts';

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
 * Per series row r, the edges (the increment of a reading stamped on bucket b's start, at
 * `r * (n + 1) + b`; NaN where there is none) at `starts` in [lo, hi], read from the hour rows.
 */
export async function readHourEdges(
  ctx: ReadContext,
  ids: string,
  g: Extract<Grid, { kind: 'fixed' }>,
  starts: readonly number[],
  row: ReadonlyMap<number, number>,
  edges: Float64Array,
): Promise<void> {
  const lo = g.base;
  const hi = g.base + g.n * g.width;
  const wanted = starts.filter((t) => t >= lo && t <= hi);
  if (wanted.length === 0) return;
  const [sid, bucket, inc] = (await ctx.reader().run((c) =>
    doubleColumns(
      c,
      `SELECT series_id::DOUBLE, bucket::DOUBLE, coalesce(inc_edge, 'NaN') FROM hour
       WHERE series_id IN (${ids}) AND bucket >= ${int(lo)} AND bucket <= ${int(hi)} AND bucket IN (${wanted.map(int).join(',')})`,
    ),
  )) as [Float64Array, Float64Array, Float64Array];
  const n = g.n;
  for (let i = 0; i < sid.length; i++) {
    const r = row.get(sid[i] as number) as number;
    edges[r * (n + 1) + ((bucket[i] as number) - g.base) / g.width] = inc[i] as number;
  }
}
