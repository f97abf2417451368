/**
 * Reads: raw points (from the recent window in memory when it holds the range), buckets on the
 * grid from the coarsest rollup that tiles it, and chart downsampling from the rollups.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { MINUTE, PlantCalendar } from '@kilowatch/contract/calendar';
import {
  bucketStart,
  bucketWidthFor,
  floorTo,
  type Grid,
  gapTolerance,
  gridOf,
  MAX_BUCKETS,
  MIN_GAP_MS,
  RESOLUTIONS,
  type Resolution,
  resolutionFor,
} from '../buckets.ts';
import { counterIncrement, incrementSql } from '../counter.ts';
import type { Bucket, BucketAggregator, BucketQuery, BucketResult, Point, SeriesKey } from '../store.ts';
import { lastBeforeMinute } from './rollups.ts';
import { columns, int, type Lane } from './schema.ts';
import { aggregateRun, lowerBound, type SeriesState, type SeriesTable } from './series.ts';

/** What reads need of the store. */
export interface ReadContext {
  readonly calendar: PlantCalendar;
  readonly series: SeriesTable;
  /** The least busy reader connection. */
  reader(): Lane;
  now(): number;
}

interface Aggregated {
  cnt: number;
  value: number | null;
  firstTs: number;
  lastTs: number;
  maxGap: number;
  firstValue: number;
}

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
 * `buckets()` answered from a given resolution (tests and benchmarks compare them); it must tile
 * the grid: raw, minute or hour for fixed widths aligned to them, day for day/month/year buckets.
 */
export async function bucketsAt(
  ctx: ReadContext,
  query: BucketQuery,
  at?: Resolution,
): Promise<BucketResult> {
  const { start, end, aggregator } = query;
  if (!Number.isFinite(start) || !Number.isFinite(end)) throw new RangeError('start and end must be numbers');
  if (!(end > start)) return { buckets: [], resolution: at ?? 'raw' };
  const g = gridOf(ctx.calendar, query.bucket, start, end);
  if (g.n * Math.max(1, query.series.length) > MAX_BUCKETS) {
    throw new RangeError(`the query asks for ${g.n * query.series.length} buckets, more than ${MAX_BUCKETS}`);
  }
  const coarsest = resolutionFor(g);
  const order: readonly Resolution[] = RESOLUTIONS;
  if (at !== undefined && (g.kind === 'fixed' ? order.indexOf(at) > order.indexOf(coarsest) : at !== 'day')) {
    throw new RangeError(`${at} rows do not tile these buckets (the coarsest that does is ${coarsest})`);
  }
  const resolution = at ?? coarsest;
  const known = query.series
    .map((s) => ctx.series.get(s.thingId, s.metric))
    .filter((st): st is SeriesState => st !== undefined);
  const data = known.length > 0 ? await aggregate(ctx, known, g, resolution, aggregator) : new Map();

  const starts = new Array<number>(g.n + 1);
  for (let i = 0; i <= g.n; i++) starts[i] = bucketStart(ctx.calendar, g, i);
  const now = ctx.now();
  const buckets: Bucket[] = [];
  for (const s of query.series) {
    const st = ctx.series.get(s.thingId, s.metric);
    const rows = st ? data.get(st.id) : undefined;
    const tolerance = st ? gapTolerance(st.intervalMs) : MIN_GAP_MS;
    for (let i = 0; i < g.n; i++) {
      const bs = starts[i] as number;
      const be = starts[i + 1] as number;
      const a = rows?.get(i);
      if (!a || a.cnt === 0) {
        buckets.push({
          thingId: s.thingId,
          metric: s.metric,
          start: bs,
          value: aggregator === 'count' ? 0 : null,
          count: 0,
          complete: false,
        });
        continue;
      }
      const complete =
        be <= now &&
        st !== undefined &&
        st.firstTs !== null &&
        st.firstTs <= bs &&
        a.maxGap <= tolerance &&
        be - a.lastTs <= tolerance;
      buckets.push({
        thingId: s.thingId,
        metric: s.metric,
        start: bs,
        value: aggregator === 'count' ? a.cnt : aggregator === 'avg' ? (a.value as number) / a.cnt : a.value,
        count: a.cnt,
        complete,
      });
    }
  }
  return { buckets, resolution };
}

/** Per series id, per bucket index: the aggregate over the grid bucket. */
async function aggregate(
  ctx: ReadContext,
  known: readonly SeriesState[],
  g: Grid,
  resolution: Resolution,
  aggregator: BucketAggregator,
): Promise<Map<number, Map<number, Aggregated>>> {
  const ids = [...new Set(known.map((s) => s.id))].map(int).join(',');
  const { index, lo, hi } = indexSql(g, resolution === 'raw' ? 'ts' : 'bucket');
  let sql: string;
  let prev: Map<number, { ts: number; value: number }> | undefined;
  if (resolution === 'raw' && g.kind === 'fixed') {
    const recent = aggregateRecent(known, g, aggregator);
    if (recent) return recent;
  }
  if (resolution === 'raw') {
    const value =
      aggregator === 'avg' || aggregator === 'sum'
        ? 'sum(value)'
        : aggregator === 'min'
          ? 'min(value)'
          : aggregator === 'max'
            ? 'max(value)'
            : aggregator === 'first'
              ? 'arg_min(value, ts)'
              : aggregator === 'last'
                ? 'arg_max(value, ts)'
                : aggregator === 'delta'
                  ? `sum(${incrementSql('pv', 'value')})`
                  : 'NULL::DOUBLE';
    sql = `WITH s AS (
        SELECT series_id, ts, value, ts - lag(ts) OVER w AS gap, lag(value) OVER w AS pv
        FROM raw WHERE series_id IN (${ids}) AND ts >= ${int(lo)} AND ts < ${int(hi)}
        WINDOW w AS (PARTITION BY series_id ORDER BY ts))
      SELECT series_id, (${index})::INTEGER AS bi, count(*)::DOUBLE, ${value}, min(ts)::DOUBLE, max(ts)::DOUBLE,
        max(gap)::DOUBLE, arg_min(value, ts)
      FROM s GROUP BY ALL`;
    prev = await ctx.reader().run((c) => lastBefore(c, known, lo));
  } else {
    const value =
      aggregator === 'avg' || aggregator === 'sum'
        ? 'sum(vsum)'
        : aggregator === 'min'
          ? 'min(vmin)'
          : aggregator === 'max'
            ? 'max(vmax)'
            : aggregator === 'first'
              ? 'arg_min(vfirst, first_ts)'
              : aggregator === 'last'
                ? 'arg_max(vlast, last_ts)'
                : aggregator === 'delta'
                  ? 'sum(inc)'
                  : 'NULL::DOUBLE';
    sql = `SELECT series_id, (${index})::INTEGER AS bi, sum(cnt)::DOUBLE, ${value}, min(first_ts)::DOUBLE,
        max(last_ts)::DOUBLE, max(max_gap)::DOUBLE, arg_min(vfirst, first_ts)
      FROM ${resolution} WHERE series_id IN (${ids}) AND bucket >= ${int(lo)} AND bucket < ${int(hi)}
      GROUP BY ALL`;
  }
  const cols = await ctx.reader().run((c) => columns(c, sql));
  const [sid, bi, cnt, val, fts, lts, gap, fv] = cols as number[][];
  const out = new Map<number, Map<number, Aggregated>>();
  const firstBucket = new Map<number, number>();
  for (let i = 0; i < (sid?.length ?? 0); i++) {
    const id = sid?.[i] as number;
    let m = out.get(id);
    if (!m) {
      m = new Map();
      out.set(id, m);
    }
    const b = bi?.[i] as number;
    m.set(b, {
      cnt: cnt?.[i] as number,
      value: (val?.[i] as number | null) ?? null,
      firstTs: fts?.[i] as number,
      lastTs: lts?.[i] as number,
      maxGap: (gap?.[i] as number | null) ?? 0,
      firstValue: fv?.[i] as number,
    });
    const fb = firstBucket.get(id);
    if (fb === undefined || b < fb) firstBucket.set(id, b);
  }
  if (prev) {
    // Raw: the first sample of each series steps from the last sample before the range.
    for (const [id, b] of firstBucket) {
      const p = prev.get(id);
      const a = out.get(id)?.get(b);
      if (!p || !a) continue;
      a.maxGap = Math.max(a.maxGap, a.firstTs - p.ts);
      if (aggregator === 'delta') a.value = (a.value ?? 0) + counterIncrement(p.value, a.firstValue);
    }
  }
  return out;
}

/** SQL for the bucket index of a row and the stored range [lo, hi) to read. */
function indexSql(g: Grid, col: string): { index: string; lo: number; hi: number } {
  switch (g.kind) {
    case 'fixed':
      return {
        index: `(${col} - ${int(g.base)}) // ${int(g.width)}`,
        lo: g.base,
        hi: g.base + g.n * g.width,
      };
    case 'days':
      return { index: `(${col} - ${int(g.d0)}) // ${int(g.k)}`, lo: g.d0, hi: g.d0 + g.n * g.k };
    case 'month':
      return {
        index: `year(DATE '1970-01-01' + ${col}::INTEGER) * 12 + month(DATE '1970-01-01' + ${col}::INTEGER) - 1 - ${int(g.m0)}`,
        lo: PlantCalendar.firstDayOfMonth(g.m0),
        hi: PlantCalendar.firstDayOfMonth(g.m0 + g.n),
      };
    case 'year':
      return {
        index: `year(DATE '1970-01-01' + ${col}::INTEGER) - ${int(g.m0 / 12)}`,
        lo: PlantCalendar.firstDayOfMonth(g.m0),
        hi: PlantCalendar.firstDayOfMonth(g.m0 + g.n * 12),
      };
  }
}

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

/** Last sample strictly before `x` (any ms) of each series: raw points of x's minute, then rollups. */
async function lastBefore(
  c: DuckDBConnection,
  series: readonly SeriesState[],
  x: number,
): Promise<Map<number, { ts: number; value: number }>> {
  const m = floorTo(x, MINUTE);
  const out = new Map<number, { ts: number; value: number }>();
  if (m < x) {
    const [ids, values, ts] = await columns(
      c,
      `SELECT series_id, arg_max(value, ts), max(ts)::DOUBLE FROM raw
       WHERE series_id IN (${series.map((s) => int(s.id)).join(',')}) AND ts >= ${int(m)} AND ts < ${int(x)}
       GROUP BY series_id`,
    );
    for (let i = 0; i < (ids?.length ?? 0); i++) {
      out.set(ids?.[i] as number, { ts: ts?.[i] as number, value: values?.[i] as number });
    }
  }
  const rest = series.filter((s) => !out.has(s.id) && s.firstTs !== null && s.firstTs < x);
  if (rest.length > 0) {
    for (const [id, v] of await lastBeforeMinute(
      c,
      rest.map((s) => ({ id: s.id, x: m })),
    )) {
      out.set(id, v);
    }
  }
  return out;
}

/** Raw buckets from the recent points in memory, when they hold the range and the sample before it. */
function aggregateRecent(
  known: readonly SeriesState[],
  g: Extract<Grid, { kind: 'fixed' }>,
  aggregator: BucketAggregator,
): Map<number, Map<number, Aggregated>> | undefined {
  const lo = g.base;
  const hi = g.base + g.n * g.width;
  const plan: { st: SeriesState; from: number; prev: { ts: number; value: number } | null }[] = [];
  for (const st of known) {
    if (st.recentFrom > lo) return undefined;
    const from = lowerBound(st.recentTs, lo);
    let prev: { ts: number; value: number } | null = null;
    if (from > 0) prev = { ts: st.recentTs[from - 1] as number, value: st.recentValues[from - 1] as number };
    else if (st.firstTs !== null && st.firstTs < lo) return undefined; // the previous sample is not in memory
    plan.push({ st, from, prev });
  }
  const out = new Map<number, Map<number, Aggregated>>();
  const bucketOf = (t: number) => Math.floor((t - g.base) / g.width);
  for (const { st, from, prev } of plan) {
    const m = new Map<number, Aggregated>();
    out.set(st.id, m);
    const to = lowerBound(st.recentTs, hi);
    aggregateRun(st.recentTs, st.recentValues, from, to, prev, bucketOf, (b, a) => {
      const value =
        aggregator === 'avg' || aggregator === 'sum'
          ? a.sum
          : aggregator === 'min'
            ? a.min
            : aggregator === 'max'
              ? a.max
              : aggregator === 'first'
                ? a.first
                : aggregator === 'last'
                  ? a.last
                  : aggregator === 'delta'
                    ? a.inc
                    : null;
      m.set(b, {
        cnt: a.cnt,
        value,
        firstTs: a.firstTs,
        lastTs: a.lastTs,
        maxGap: a.maxGap ?? 0,
        firstValue: a.first,
      });
    });
  }
  return out;
}
