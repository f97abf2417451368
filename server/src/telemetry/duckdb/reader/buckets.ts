import type { DuckDBConnection } from '@duckdb/node-api';
import { HOUR, MINUTE, PlantCalendar } from '@kilowatch/contract/calendar';
import {
  bucketStart,
  floorTo,
  type Grid,
  gapTolerance,
  gridOf,
  MAX_BUCKETS,
  RESOLUTIONS,
  type Resolution,
  resolutionFor,
} from '../../buckets.ts';
import { counterIncrement, incrementSql } from '../../counter.ts';
import {
  type BucketAggregator,
  type BucketColumns,
  type BucketQuery,
  type BucketResult,
  bucketsOf,
  type SeriesKey,
} from '../../store.ts';
import { lastBefore, minuteRows, readResolution, type Sample } from '../minutes.ts';
import { doubleColumns, int } from '../schema.ts';
import { aggregateRun, lowerBound, rawRowsAbout, type SeriesState } from '../series.ts';
import { aggregatorValue, cachedRows, foldRows, rowRange } from './cached-rollups.ts';
import type { ReadContext } from './context.ts';
import { hourEdgesSql, hourStartsAfter } from './hour-edges.ts';

/**
 * `buckets()` answered from a given resolution (tests and benchmarks compare them); it must tile
 * the grid: raw, minute or hour for fixed widths aligned to them, day for day/month/year buckets.
 */
export async function bucketsAt(
  ctx: ReadContext,
  query: BucketQuery,
  at?: Resolution,
): Promise<BucketResult> {
  return bucketsOf(await bucketColumnsAt(ctx, query, at));
}

/** `bucketsAt` as columns (see TelemetryStore.bucketColumns). */
export async function bucketColumnsAt(
  ctx: ReadContext,
  query: BucketQuery,
  at?: Resolution,
): Promise<BucketColumns> {
  const { start, end, aggregator } = query;
  if (!Number.isFinite(start) || !Number.isFinite(end)) throw new RangeError('start and end must be numbers');
  if (!(end > start)) return emptyColumns(query.series, at ?? 'raw');
  const g = gridOf(ctx.calendar, query.bucket, start, end);
  if (g.n * Math.max(1, query.series.length) > MAX_BUCKETS) {
    throw new RangeError(`the query asks for ${g.n * query.series.length} buckets, more than ${MAX_BUCKETS}`);
  }
  const coarsest = resolutionFor(g);
  const order: readonly Resolution[] = RESOLUTIONS;
  if (at !== undefined && (g.kind === 'fixed' ? order.indexOf(at) > order.indexOf(coarsest) : at !== 'day')) {
    throw new RangeError(`${at} rows do not tile these buckets (the coarsest that does is ${coarsest})`);
  }
  const resolution = at ?? readResolution(g, coarsest, ctx.horizon);
  const known = [
    ...new Set(
      query.series
        .map((s) => ctx.series.get(s.thingId, s.metric))
        .filter((st): st is SeriesState => st !== undefined),
    ),
  ];
  if (query.hours && !(g.kind === 'fixed' && g.width <= HOUR && query.hours.every((h) => h % HOUR === 0))) {
    throw new RangeError('hours go with fixed buckets of at most an hour, each hour a multiple of an hour');
  }
  const wantComplete = query.complete !== false;
  const data =
    known.length > 0
      ? await aggregate(ctx, known, g, resolution, aggregator, query.hours, wantComplete)
      : null;

  const n = g.n;
  const starts = new Float64Array(n + 1);
  for (let i = 0; i <= n; i++) starts[i] = bucketStart(ctx.calendar, g, i);
  const size = query.series.length * n;
  const values = new Float64Array(size).fill(aggregator === 'count' ? 0 : Number.NaN);
  const counts = new Float64Array(size);
  const complete = new Uint8Array(size);
  const now = ctx.now();
  query.series.forEach((s, k) => {
    const st = ctx.series.get(s.thingId, s.metric);
    const row = st && data ? data.row.get(st.id) : undefined;
    if (!st || row === undefined || !data) return;
    const tolerance = gapTolerance(st.intervalMs);
    const from = row * n;
    const to = k * n;
    for (let i = 0; i < n; i++) {
      const cnt = data.cnt[from + i] as number;
      if (cnt === 0) continue;
      const be = starts[i + 1] as number;
      const v = data.value[from + i] as number;
      values[to + i] = aggregator === 'count' ? cnt : aggregator === 'avg' ? v / cnt : v;
      counts[to + i] = cnt;
      complete[to + i] =
        wantComplete &&
        be <= now &&
        st.firstTs !== null &&
        st.firstTs <= (starts[i] as number) &&
        (data.maxGap[from + i] as number) <= tolerance &&
        be - (data.lastTs[from + i] as number) <= tolerance
          ? 1
          : 0;
    }
  });
  return { series: query.series, starts, values, counts, complete, resolution };
}

function emptyColumns(series: readonly SeriesKey[], resolution: string): BucketColumns {
  return {
    series,
    starts: new Float64Array(0),
    values: new Float64Array(0),
    counts: new Float64Array(0),
    complete: new Uint8Array(0),
    resolution,
  };
}

/**
 * Aggregates over the grid, one row of `n` buckets per series (its index in `row`): a bucket
 * without samples has count 0; value NaN where the aggregator has none.
 */
interface Aggregates {
  row: Map<number, number>;
  cnt: Float64Array;
  value: Float64Array;
  /** Empty when `complete` is not wanted (nothing reads them then). */
  lastTs: Float64Array;
  maxGap: Float64Array;
}

/** The rollup whose rows are exactly the grid's buckets, if any (no grouping needed then). */
function identityRollup(g: Grid, resolution: Resolution): boolean {
  if (g.kind === 'fixed') {
    return (resolution === 'hour' && g.width === HOUR) || (resolution === 'minute' && g.width === MINUTE);
  }
  return g.kind === 'days' && g.k === 1 && resolution === 'day';
}

/** The rollup column, or its combination over rows, that gives an aggregator's value. */
function rollupValue(aggregator: BucketAggregator, grouped: boolean): string {
  switch (aggregator) {
    case 'avg':
    case 'sum':
      return grouped ? 'sum(vsum)' : 'vsum';
    case 'min':
      return grouped ? 'min(vmin)' : 'vmin';
    case 'max':
      return grouped ? 'max(vmax)' : 'vmax';
    case 'first':
      return grouped ? 'arg_min(vfirst, first_ts)' : 'vfirst';
    case 'last':
      return grouped ? 'arg_max(vlast, last_ts)' : 'vlast';
    case 'delta':
      return grouped ? 'sum(inc)' : 'inc';
    default:
      return 'NULL::DOUBLE';
  }
}

/** Per series, per bucket index: the aggregate over the grid bucket. */
async function aggregate(
  ctx: ReadContext,
  known: readonly SeriesState[],
  g: Grid,
  resolution: Resolution,
  aggregator: BucketAggregator,
  hours: readonly number[] | undefined,
  wantComplete: boolean,
): Promise<Aggregates> {
  const ids = known.map((s) => int(s.id)).join(',');
  const col = resolution === 'raw' ? 'ts' : 'bucket';
  const { index, lo, hi, atStart } = indexSql(g, col);
  const delta = aggregator === 'delta';
  // A counter's bucket also takes the reading stamped on its end (interval-ending): delta reads
  // the row at `hi`, and with `hours` the first row of the hour after each hour asked for: from
  // the hour rows, added to the read, where the grid allows (hour-edges.ts), else here, written as one IN list
  // first (the hours and the hours after them) and the test of the hour's first row after it: an
  // OR of two IN lists cost DuckDB 3× the whole read (bench/README.md).
  const apart =
    delta && hours && resolution !== 'raw' && g.kind === 'fixed' ? hourStartsAfter(g, hours) : null;
  const hourList = hours?.map((h) => int(h / HOUR)).join(',');
  const withNext = [...new Set(hours?.flatMap((h) => [h / HOUR, h / HOUR + 1]))].map(int).join(',');
  const inHours = !hours
    ? ''
    : delta && !apart
      ? ` AND ${col} // ${HOUR} IN (${withNext}) AND (${col} // ${HOUR} IN (${hourList}) OR ${col} % ${HOUR} = 0)`
      : ` AND ${col} // ${HOUR} IN (${hourList})`;
  const below = delta ? '<=' : '<';
  const n = g.n;
  const row = new Map(known.map((s, i) => [s.id, i]));
  const size = known.length * n;
  const out: Aggregates = {
    row,
    cnt: new Float64Array(size),
    value: new Float64Array(size).fill(Number.NaN),
    lastTs: new Float64Array(wantComplete ? size : 0),
    maxGap: new Float64Array(wantComplete ? size : 0),
  };
  if (hours?.length === 0) return out;
  const edges: Edges | null = delta ? new Float64Array(known.length * (n + 1)).fill(Number.NaN) : null;
  if (resolution === 'raw' && g.kind === 'fixed' && !hours) {
    const inMemory = aggregateRecent(known, g, aggregator, out, edges, wantComplete);
    if (inMemory || rawRowsAbout(known, lo, hi) <= ctx.rawRowsInJs) {
      if (!inMemory) await aggregateStored(ctx, known, g, aggregator, out, edges, wantComplete);
      if (edges) closeOnEdges(out, edges, n, null);
      return out;
    }
  }
  if ((resolution === 'hour' || resolution === 'day') && !hours) {
    const rows = await cachedRows(ctx, known, resolution, lo);
    if (rows) {
      foldRows(rows, g, aggregator, out, edges, wantComplete);
      if (edges) closeOnEdges(out, edges, n, null);
      return out;
    }
  }
  // The last sample and largest gap only serve `complete`: without it, constants are cheaper than
  // their aggregates (a grouped minute read spends a third of its time on them).
  const ends = (last: string, gap: string) =>
    wantComplete ? `${last}::DOUBLE, coalesce(${gap}, 0)::DOUBLE` : `'NaN'::DOUBLE, 0::DOUBLE`;
  let sql: string;
  let prev: Map<number, { ts: number; value: number }> | undefined;
  // Every column DOUBLE and never NULL (NaN instead): they are copied out as typed arrays.
  // sid, bucket index, count, value, last ts, max gap, the edge reading's increment (NaN: none);
  // then for raw, the first sample of the series in the range (its step from before the range).
  if (resolution === 'raw') {
    const inc = incrementSql('pv', 'value');
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
                : delta
                  ? `sum(${inc})`
                  : 'NULL::DOUBLE';
    const edge = delta ? `coalesce(max(${inc}) FILTER (WHERE ${atStart}), 'NaN')` : `'NaN'::DOUBLE`;
    sql = `WITH s AS (
        SELECT series_id, ts, value, ts - lag(ts) OVER w AS gap, lag(value) OVER w AS pv
        FROM raw WHERE series_id IN (${ids}) AND ts >= ${int(lo)} AND ts ${below} ${int(hi)}
        WINDOW w AS (PARTITION BY series_id ORDER BY ts))
      SELECT series_id::DOUBLE, (${index})::DOUBLE AS bi, count(*)::DOUBLE, coalesce(${value}, 'NaN'),
        ${ends('max(ts)', 'max(gap)')}, ${edge},
        coalesce(max(ts) FILTER (WHERE pv IS NULL)::DOUBLE, 'NaN'), coalesce(arg_min(value, ts) FILTER (WHERE pv IS NULL), 'NaN')
      FROM s WHERE TRUE${inHours} GROUP BY series_id, bi`;
    prev = await ctx.reader().run((c) => lastBeforeOf(c, known, lo, ctx.horizon.at));
  } else {
    // Minute rows are stored below the horizon and made from raw points above it (minutes.ts).
    const table =
      resolution === 'minute'
        ? `(${await ctx.reader().run((c) =>
            minuteRows(
              c,
              known.map((s) => s.id),
              lo,
              delta ? hi + MINUTE : hi,
              ctx.horizon.at,
            ),
          )})`
        : resolution;
    const range = `series_id IN (${ids}) AND bucket >= ${int(lo)} AND bucket ${below} ${int(hi)}${inHours}`;
    if (identityRollup(g, resolution)) {
      // One stored row per series and bucket: read as they are.
      const edge = delta ? `coalesce(inc_edge, 'NaN')` : `'NaN'::DOUBLE`;
      sql = `SELECT series_id::DOUBLE, (${index})::DOUBLE, cnt::DOUBLE, coalesce(${rollupValue(aggregator, false)}, 'NaN'),
          ${ends('last_ts', 'max_gap')}, ${edge}
        FROM ${table} WHERE ${range}`;
    } else {
      const edge = delta ? `coalesce(max(inc_edge) FILTER (WHERE ${atStart}), 'NaN')` : `'NaN'::DOUBLE`;
      sql = `SELECT series_id::DOUBLE, (${index})::DOUBLE AS bi, sum(cnt)::DOUBLE,
          coalesce(${rollupValue(aggregator, true)}, 'NaN'), ${ends('max(last_ts)', 'max(max_gap)')}, ${edge}
        FROM ${table} WHERE ${range}
        GROUP BY series_id, bi`;
    }
  }
  const after = apart && g.kind === 'fixed' ? hourEdgesSql(ids, g, apart) : null;
  if (after) sql = `${sql} UNION ALL ${after}`;
  const [sid, bi, cnt, val, lts, gap, ei, fts, fv] = (await ctx
    .reader()
    .run((c) => doubleColumns(c, sql))) as [
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array?,
    Float64Array?,
  ];
  // Series ids are small integers: an array finds a row's series without a map lookup per row
  // (a month of hours for 200 meters is 149k rows).
  const rowOf = new Int32Array(known.reduce((m, s) => Math.max(m, s.id), 0) + 1);
  for (const [id, r] of row) rowOf[id] = r;
  // With `hours`, rows outside them (the hour after each, for its edge) give their edge only.
  const selected = hours ? selectedBuckets(g, hours) : null;
  if (prev) {
    const base = g.kind === 'fixed' ? g.base : Number.NaN;
    const width = g.kind === 'fixed' ? g.width : Number.NaN;
    for (let i = 0; i < sid.length; i++) {
      const id = sid[i] as number;
      const b = bi[i] as number;
      const r = rowOf[id] as number;
      // Raw: the first sample of the series in the range steps from the last sample before it.
      const first = fts ? (fts[i] as number) : Number.NaN;
      const p = !Number.isNaN(first) ? prev.get(id) : undefined;
      const x = p && delta ? counterIncrement(p.value, fv?.[i] as number) : 0;
      // A reading on the start has an increment (0 for a series' first): NaN means none.
      if (edges) edges[r * (n + 1) + b] = p && first === base + b * width ? x : (ei[i] as number);
      if (b >= n || (selected !== null && selected[b] === 0)) continue; // the reading on the range's end: its edge only
      const at = r * n + b;
      out.cnt[at] = cnt[i] as number;
      if (p) {
        const v = val[i] as number;
        out.value[at] = delta ? (Number.isNaN(v) ? 0 : v) + x : v;
      } else {
        out.value[at] = val[i] as number;
      }
      if (wantComplete) {
        out.lastTs[at] = lts[i] as number;
        out.maxGap[at] = p ? Math.max(gap[i] as number, first - p.ts) : (gap[i] as number);
      }
    }
  } else {
    // Rollup rows: no step from before the range (a month of hours of 200 meters is 149k rows).
    for (let i = 0; i < sid.length; i++) {
      const b = bi[i] as number;
      const r = rowOf[sid[i] as number] as number;
      if (edges) edges[r * (n + 1) + b] = ei[i] as number;
      if (b >= n || (selected !== null && selected[b] === 0)) continue;
      const at = r * n + b;
      out.cnt[at] = cnt[i] as number;
      out.value[at] = val[i] as number;
      if (wantComplete) {
        out.lastTs[at] = lts[i] as number;
        out.maxGap[at] = gap[i] as number;
      }
    }
  }
  if (edges) closeOnEdges(out, edges, n, selected ? indicesOf(selected) : null);
  return out;
}

/** The indices where `flags` is 1. */
function indicesOf(flags: Uint8Array): Int32Array {
  let k = 0;
  for (const f of flags) k += f;
  const out = new Int32Array(k);
  k = 0;
  for (let i = 0; i < flags.length; i++) if (flags[i] === 1) out[k++] = i;
  return out;
}

/**
 * Per series row r, per bucket index b in 0…n, at `r * (n + 1) + b`: the increment of a reading
 * stamped on the bucket's start, NaN where there is none.
 */
type Edges = Float64Array;

/**
 * Interval-ending counters: a reading stamped on a bucket's start closes the bucket before it,
 * so bucket i's increments are those of its samples, less its start reading's, plus the next
 * bucket's start reading's; its count is the readings that close in it. Only the buckets in
 * `only` when given (the hours asked for; the others were left empty).
 */
function closeOnEdges(out: Aggregates, edges: Edges, n: number, only: Int32Array | null): void {
  const m = only ? only.length : n;
  for (let r = 0; r < out.row.size; r++) {
    for (let k = 0; k < m; k++) {
      const i = only ? (only[k] as number) : k;
      const at = r * n + i;
      const e0 = r * (n + 1) + i;
      const i0 = edges[e0] as number;
      const i1 = edges[e0 + 1] as number;
      const c0 = Number.isNaN(i0) ? 0 : 1;
      const c1 = Number.isNaN(i1) ? 0 : 1;
      const cnt = (out.cnt[at] as number) - c0 + c1;
      let v = out.value[at] as number;
      if (Number.isNaN(v)) v = 0;
      if (c0 > 0) v -= i0;
      if (c1 > 0) v += i1;
      out.cnt[at] = cnt;
      out.value[at] = cnt > 0 ? v : Number.NaN;
    }
  }
}

/** 1 for each bucket of a fixed grid that starts in one of `hours`. */
function selectedBuckets(g: Grid, hours: readonly number[]): Uint8Array {
  const out = new Uint8Array(g.n);
  if (g.kind !== 'fixed') return out;
  const set = new Set(hours);
  for (let i = 0; i < g.n; i++) out[i] = set.has(floorTo(g.base + i * g.width, HOUR)) ? 1 : 0;
  return out;
}

/** SQL for the bucket index of a row, the stored range [lo, hi) to read, and whether a row starts its bucket. */
export function indexSql(g: Grid, col: string): { index: string; lo: number; hi: number; atStart: string } {
  const { lo, hi } = rowRange(g);
  switch (g.kind) {
    case 'fixed':
      return {
        index: `(${col} - ${int(g.base)}) // ${int(g.width)}`,
        lo,
        hi,
        atStart: `(${col} - ${int(g.base)}) % ${int(g.width)} = 0`,
      };
    case 'days':
      return {
        index: `(${col} - ${int(g.d0)}) // ${int(g.k)}`,
        lo,
        hi,
        atStart: `(${col} - ${int(g.d0)}) % ${int(g.k)} = 0`,
      };
    case 'month':
      return {
        index: `year(DATE '1970-01-01' + ${col}::INTEGER) * 12 + month(DATE '1970-01-01' + ${col}::INTEGER) - 1 - ${int(g.m0)}`,
        lo,
        hi,
        atStart: startsIn(g.n, (i) => PlantCalendar.firstDayOfMonth(g.m0 + i), col),
      };
    case 'year':
      return {
        index: `year(DATE '1970-01-01' + ${col}::INTEGER) - ${int(g.m0 / 12)}`,
        lo,
        hi,
        atStart: startsIn(g.n, (i) => PlantCalendar.firstDayOfMonth(g.m0 + i * 12), col),
      };
  }
}

/**
 * Whether a day row starts one of the `n` month or year buckets (or the one after them): a list
 * of their first days costs DuckDB less than a date function of every row (the year by month of
 * 50 meters, DuckDB alone: 1.8 against 2.2 ms of CPU).
 */
function startsIn(n: number, firstDay: (i: number) => number, col: string): string {
  const days: string[] = [];
  for (let i = 0; i <= n; i++) days.push(int(firstDay(i)));
  return `${col} IN (${days.join(',')})`;
}

/** Last sample strictly before `x` of each series that has one (minutes.ts lastBefore). */
const lastBeforeOf = (
  c: DuckDBConnection,
  series: readonly SeriesState[],
  x: number,
  horizon: number,
): Promise<Map<number, Sample>> =>
  lastBefore(
    c,
    series.filter((s) => s.firstTs !== null && s.firstTs < x).map((s) => ({ id: s.id, x })),
    horizon,
  );

/**
 * Raw buckets from the recent points in memory into `out`, when they hold the range and the
 * sample before it; false (nothing written) when they do not.
 */
function aggregateRecent(
  known: readonly SeriesState[],
  g: Extract<Grid, { kind: 'fixed' }>,
  aggregator: BucketAggregator,
  out: Aggregates,
  edges: Edges | null,
  wantComplete: boolean,
): boolean {
  const lo = g.base;
  const hi = g.base + g.n * g.width;
  const plan: { st: SeriesState; from: number; prev: { ts: number; value: number } | null }[] = [];
  for (const st of known) {
    if (st.recentFrom > lo) return false;
    const from = lowerBound(st.recentTs, lo);
    let prev: { ts: number; value: number } | null = null;
    if (from > 0) prev = { ts: st.recentTs[from - 1] as number, value: st.recentValues[from - 1] as number };
    else if (st.firstTs !== null && st.firstTs < lo) return false; // the previous sample is not in memory
    plan.push({ st, from, prev });
  }
  const run = runInto(g, aggregator, out, edges, wantComplete);
  for (const { st, from, prev } of plan) {
    // A counter's last bucket also takes the reading stamped on the range's end.
    const to = lowerBound(st.recentTs, edges ? hi + 1 : hi);
    run(st.id, st.recentTs, st.recentValues, from, to, prev);
  }
  return true;
}

/**
 * Raw buckets of stored points into `out`: the points fetched in order and aggregated like the
 * recent ones in memory (aggregateRun). DuckDB's window over the points (the SQL path in
 * aggregate(): each sample's step from the one before) costs ≈ 2.4 ms for 3,600 points where
 * fetching them costs ≈ 0.7 (bench/README.md "Minute-width reads from raw points").
 */
async function aggregateStored(
  ctx: ReadContext,
  known: readonly SeriesState[],
  g: Extract<Grid, { kind: 'fixed' }>,
  aggregator: BucketAggregator,
  out: Aggregates,
  edges: Edges | null,
  wantComplete: boolean,
): Promise<void> {
  const lo = g.base;
  const hi = g.base + g.n * g.width;
  const ids = known.map((s) => int(s.id)).join(',');
  // A counter's last bucket also takes the reading stamped on the range's end.
  const below = edges ? '<=' : '<';
  const [prev, [sid, ts, values]] = await ctx.reader().run(
    async (c) =>
      [
        await lastBeforeOf(c, known, lo, ctx.horizon.at),
        (await doubleColumns(
          c,
          `SELECT series_id::DOUBLE, ts::DOUBLE, coalesce(value, 'NaN'::DOUBLE) FROM raw
           WHERE series_id IN (${ids}) AND ts >= ${int(lo)} AND ts ${below} ${int(hi)} ORDER BY series_id, ts`,
        )) as [Float64Array, Float64Array, Float64Array],
      ] as const,
  );
  const run = runInto(g, aggregator, out, edges, wantComplete);
  for (let i = 0; i < sid.length; ) {
    const id = sid[i] as number;
    let j = i + 1;
    while (j < sid.length && sid[j] === id) j++;
    run(id, ts, values, i, j, prev.get(id) ?? null);
    i = j;
  }
}

/**
 * Aggregates one series' run of samples (`aggregateRun`, oldest first) over the fixed grid into
 * its row of `out` (and its edges): the points in memory and the stored points fetched go the same way.
 */
function runInto(
  g: Extract<Grid, { kind: 'fixed' }>,
  aggregator: BucketAggregator,
  out: Aggregates,
  edges: Edges | null,
  wantComplete: boolean,
): (
  id: number,
  ts: ArrayLike<number>,
  values: ArrayLike<number>,
  from: number,
  to: number,
  prev: { ts: number; value: number } | null,
) => void {
  const n = g.n;
  const bucketOf = (t: number) => Math.floor((t - g.base) / g.width);
  const startOf = (b: number) => g.base + b * g.width;
  return (id, ts, values, from, to, prev) => {
    const r = out.row.get(id) as number;
    const base = r * n;
    aggregateRun(ts, values, from, to, prev, bucketOf, startOf, (b, a) => {
      if (edges) edges[r * (n + 1) + b] = a.edge ?? Number.NaN;
      if (b >= n) return;
      out.cnt[base + b] = a.cnt;
      out.value[base + b] = aggregatorValue(aggregator, a.sum, a.min, a.max, a.first, a.last, a.inc);
      if (wantComplete) {
        out.lastTs[base + b] = a.lastTs;
        out.maxGap[base + b] = a.maxGap ?? 0;
      }
    });
  };
}
