import type { Point, PointColumns, SeriesKey } from '../../store.ts';
import { columns, doubleColumns, int } from '../schema.ts';
import { lowerBound, type SeriesState } from '../series.ts';
import type { ReadContext } from './context.ts';

/** Raw points of one series, oldest first (see TelemetryStore.points). */
export async function points(
  ctx: ReadContext,
  series: SeriesKey,
  start: number,
  end: number,
  limit: number,
): Promise<Point[]> {
  const st = ctx.series.get(series.thingId, series.metric);
  if (!st || !(end > start) || limit <= 0) return [];
  if (st.recentFrom <= start) {
    // All stored points of the range are in memory.
    const from = lowerBound(st.recentTs, start);
    const to = Math.min(lowerBound(st.recentTs, end), from + Math.floor(limit));
    const out: Point[] = new Array(Math.max(0, to - from));
    for (let i = from; i < to; i++) {
      out[i - from] = {
        thingId: st.thingId,
        metric: st.metric,
        ts: st.recentTs[i] as number,
        value: st.recentValues[i] as number,
      };
    }
    return out;
  }
  const [ts, values] = await ctx.reader().run((c) =>
    columns(
      c,
      `SELECT ts::DOUBLE, value FROM raw WHERE series_id = ${int(st.id)}
       AND ts >= ${int(Math.ceil(start))} AND ts < ${int(Math.ceil(end))} ORDER BY ts LIMIT ${int(Math.floor(limit))}`,
    ),
  );
  const out: Point[] = new Array(ts?.length ?? 0);
  for (let i = 0; i < out.length; i++) {
    out[i] = {
      thingId: st.thingId,
      metric: st.metric,
      ts: ts?.[i] as number,
      value: values?.[i] as number,
    };
  }
  return out;
}

/**
 * Raw points of several series (see TelemetryStore.pointColumns): from memory when every series
 * holds the range there, else one scan of the raw table for all of them (a read per series scans
 * it once each: the table has no index by series).
 */
export async function pointColumns(
  ctx: ReadContext,
  series: readonly SeriesKey[],
  start: number,
  end: number,
  limit: number,
  after?: number,
): Promise<PointColumns> {
  const known: { index: number; st: SeriesState }[] = [];
  series.forEach((s, index) => {
    const st = ctx.series.get(s.thingId, s.metric);
    if (st) known.push({ index, st });
  });
  const empty = { index: new Float64Array(0), ts: new Float64Array(0), values: new Float64Array(0) };
  if (known.length === 0 || !(end > start) || limit <= 0) return empty;
  const firstFrom = (index: number) =>
    index === 0 && after !== undefined ? Math.max(start, after + 1) : start;
  if (known.every(({ st }) => st.recentFrom <= start)) {
    const ranges = known.map(({ index, st }) => {
      const from = lowerBound(st.recentTs, firstFrom(index));
      return { index, st, from, to: Math.max(from, lowerBound(st.recentTs, end)) };
    });
    const total = Math.min(
      Math.floor(limit),
      ranges.reduce((n, r) => n + r.to - r.from, 0),
    );
    const out = {
      index: new Float64Array(total),
      ts: new Float64Array(total),
      values: new Float64Array(total),
    };
    let at = 0;
    for (const { index, st, from, to } of ranges) {
      const take = Math.min(to - from, total - at);
      out.index.fill(index, at, at + take);
      for (let i = 0; i < take; i++) {
        out.ts[at + i] = st.recentTs[from + i] as number;
        out.values[at + i] = st.recentValues[from + i] as number;
      }
      at += take;
      if (at === total) break;
    }
    return out;
  }
  const ids = known.map(({ index, st }) => `(${int(index)}, ${int(st.id)})`).join(', ');
  const resume = after === undefined ? '' : ` AND (q.idx > 0 OR r.ts > ${int(Math.floor(after))})`;
  const [index, ts, values] = await ctx.reader().run((c) =>
    doubleColumns(
      c,
      `SELECT q.idx::DOUBLE, r.ts::DOUBLE, coalesce(r.value, 'NaN'::DOUBLE)
       FROM raw r JOIN (VALUES ${ids}) q(idx, sid) ON r.series_id = q.sid
       WHERE r.ts >= ${int(Math.ceil(start))} AND r.ts < ${int(Math.ceil(end))}${resume}
       ORDER BY q.idx, r.ts LIMIT ${int(Math.floor(limit))}`,
    ),
  );
  return { index: index ?? empty.index, ts: ts ?? empty.ts, values: values ?? empty.values };
}
