import { MINUTE } from '@kilowatch/contract/calendar';
import { bucketWidthFor, gridOf, resolutionFor } from '../../buckets.ts';
import type { Point, SeriesKey } from '../../store.ts';
import { columns, int } from '../schema.ts';
import { indexSql } from './buckets.ts';
import type { ReadContext } from './context.ts';
import { points } from './points.ts';

/**
 * About `maxPoints` points of one series over [start, end) for a chart: the raw points when
 * there are few enough, else the minimum and maximum of each bucket (with their own times), on
 * the coarsest resolution whose buckets fit. Buckets are the `buckets()` grid, so the rollups
 * answer: 30 days into ≤ 2,000 points reads 720 hour rows.
 */
export async function downsample(
  ctx: ReadContext,
  series: SeriesKey,
  start: number,
  end: number,
  maxPoints: number,
): Promise<Point[]> {
  const st = ctx.series.get(series.thingId, series.metric);
  if (!st || !(end > start) || maxPoints < 1) return [];
  const need = (end - start) / Math.max(1, Math.floor(maxPoints / 2));
  if (need <= (st.intervalMs ?? MINUTE)) {
    const pts = await points(ctx, series, start, end, maxPoints + 1);
    if (pts.length <= maxPoints) return pts;
  }
  const width = bucketWidthFor(need);
  const g = gridOf(ctx.calendar, { widthMs: width }, start, end);
  const resolution = resolutionFor(g);
  const { index, lo, hi } = indexSql(g, resolution === 'raw' ? 'ts' : 'bucket');
  const sql =
    resolution === 'raw'
      ? `SELECT (${index})::INTEGER AS bi, min(value), arg_min(ts, value)::DOUBLE, max(value), arg_max(ts, value)::DOUBLE
         FROM raw WHERE series_id = ${int(st.id)} AND ts >= ${int(lo)} AND ts < ${int(hi)} GROUP BY bi ORDER BY bi`
      : `SELECT (${index})::INTEGER AS bi, min(vmin), arg_min(min_ts, vmin)::DOUBLE, max(vmax), arg_max(max_ts, vmax)::DOUBLE
         FROM ${resolution} WHERE series_id = ${int(st.id)} AND bucket >= ${int(lo)} AND bucket < ${int(hi)}
         GROUP BY bi ORDER BY bi`;
  const [, mins, minTs, maxs, maxTs] = (await ctx.reader().run((c) => columns(c, sql))) as number[][];
  const out: Point[] = [];
  const push = (ts: number, value: number) => {
    if (ts >= start && ts < end) out.push({ thingId: st.thingId, metric: st.metric, ts, value });
  };
  for (let i = 0; i < (mins?.length ?? 0); i++) {
    const a = minTs?.[i] as number;
    const b = maxTs?.[i] as number;
    if (a === b) push(a, mins?.[i] as number);
    else if (a < b) {
      push(a, mins?.[i] as number);
      push(b, maxs?.[i] as number);
    } else {
      push(b, maxs?.[i] as number);
      push(a, mins?.[i] as number);
    }
  }
  return out;
}
