/**
 * Reads: raw points (from the recent window in memory when it holds the range), buckets on the
 * grid from the coarsest rollup that tiles it, and chart downsampling from the rollups.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { HOUR, MINUTE, PlantCalendar } from '@kilowatch/contract/calendar';
import {
  bucketStart,
  bucketWidthFor,
  floorTo,
  type Grid,
  gapTolerance,
  gridOf,
  MAX_BUCKETS,
  RESOLUTIONS,
  type Resolution,
  resolutionFor,
} from '../buckets.ts';
import { counterIncrement, incrementSql } from '../counter.ts';
import {
  type BucketAggregator,
  type BucketColumns,
  type BucketQuery,
  type BucketResult,
  bucketsOf,
  type Point,
  type PointColumns,
  type SeriesKey,
} from '../store.ts';
import { lastBeforeMinute } from './rollups.ts';
import { columns, doubleColumns, int, type Lane } from './schema.ts';
import { aggregateRun, lowerBound, type SeriesState, type SeriesTable } from './series.ts';

/** What reads need of the store. */
export interface ReadContext {
  readonly calendar: PlantCalendar;
  readonly series: SeriesTable;
  /** The least busy reader connection. */
  reader(): Lane;
  now(): number;
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
 * Raw points of several series (see TelemetryStore.pointColumns): from memory when every series
 * holds the range there, else one scan of the raw table for all of them (a read per series scans
 * it once each: the table has no index by series), after a count of their points.
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
  return ctx.reader().run((c) => pointColumnsOnDisk(c, known, start, end, Math.floor(limit), after));
}

/**
 * `pointColumns` from the raw table. A page holds the series that fit in `limit` (their counts read
 * first) and the start of the one that does not; their rows are scanned in storage order, without
 * an ORDER BY (sorting a month of points cost DuckDB as much as scanning them, bench/README.md),
 * then grouped by series and put in time order here: rows of a series are stored oldest first
 * unless late points came in, which only then costs a sort. Both reads see one snapshot.
 */
async function pointColumnsOnDisk(
  c: DuckDBConnection,
  known: readonly { index: number; st: SeriesState }[],
  start: number,
  end: number,
  limit: number,
  after: number | undefined,
): Promise<PointColumns> {
  const range = `ts >= ${int(Math.ceil(start))} AND ts < ${int(Math.ceil(end))}`;
  const resume = after === undefined ? undefined : Math.floor(after);
  /** Whether entry `k` is the first series asked for, whose points start after `resume`. */
  const resumes = (k: number) => resume !== undefined && known[k]?.index === 0;
  const idList = (sts: readonly SeriesState[]) => [...new Set(sts.map((st) => int(st.id)))].join(',');
  return inSnapshot(c, async () => {
    const [cid, all, later] = await doubleColumns(
      c,
      `SELECT series_id::DOUBLE, count(*)::DOUBLE, count(*) FILTER (WHERE ts > ${int(resume ?? 0)})::DOUBLE
       FROM raw WHERE series_id IN (${idList(known.map((k) => k.st))}) AND ${range} GROUP BY series_id`,
    );
    const counts = new Map<number, { all: number; later: number }>();
    for (let i = 0; i < (cid?.length ?? 0); i++)
      counts.set(cid?.[i] as number, { all: all?.[i] as number, later: later?.[i] as number });
    // The entries this page reaches: all of those that fit, and the first that does not.
    let reach = 0;
    let total = 0;
    while (reach < known.length && total < limit) {
      const n = counts.get((known[reach] as (typeof known)[number]).st.id);
      total += n === undefined ? 0 : resumes(reach) ? n.later : n.all;
      reach++;
    }
    const chosen = known.slice(0, reach).filter(({ st }) => counts.has(st.id));
    const size = Math.min(limit, total);
    const out = { index: new Float64Array(size), ts: new Float64Array(size), values: new Float64Array(size) };
    if (size === 0) return out;
    const [sid, ts, values] = (await doubleColumns(
      c,
      `SELECT series_id::DOUBLE, ts::DOUBLE, coalesce(value, 'NaN'::DOUBLE) FROM raw
       WHERE series_id IN (${idList(chosen.map((k) => k.st))}) AND ${range}`,
    )) as [Float64Array, Float64Array, Float64Array];
    const { from, to, order } = groupBySeries(
      chosen.map((k) => k.st.id),
      sid,
      ts,
    );
    let at = 0;
    chosen.forEach(({ index }, k) => {
      let i = from[k] as number;
      const stop = to[k] as number;
      if (index === 0 && resume !== undefined)
        while (i < stop && (ts[order ? (order[i] as number) : i] as number) <= resume) i++;
      const take = Math.min(stop - i, size - at);
      out.index.fill(index, at, at + take);
      if (order === null) {
        out.ts.set(ts.subarray(i, i + take), at);
        out.values.set(values.subarray(i, i + take), at);
      } else
        for (let j = 0; j < take; j++) {
          const r = order[i + j] as number;
          out.ts[at + j] = ts[r] as number;
          out.values[at + j] = values[r] as number;
        }
      at += take;
    });
    return out;
  });
}

/** Runs reads on `c` in one transaction, so they see one snapshot of the committed data. */
export async function inSnapshot<T>(c: DuckDBConnection, read: () => Promise<T>): Promise<T> {
  await c.run('BEGIN TRANSACTION');
  let out: T;
  try {
    out = await read();
  } catch (error) {
    await c.run('ROLLBACK');
    throw error;
  }
  await c.run('COMMIT');
  return out;
}

/**
 * Rows of several series (`sid`, `ts`) in series order (`ids`, an id may repeat) and oldest first:
 * entry `k`'s rows are `order[from[k]]` … `order[to[k] - 1]`, or rows `from[k]` … `to[k] - 1`
 * themselves when `order` is null (the rows came grouped and in order, as stored by in-order writes).
 */
function groupBySeries(
  ids: readonly number[],
  sid: Float64Array,
  ts: Float64Array,
): { from: Float64Array; to: Float64Array; order: Uint32Array | null } {
  const n = sid.length;
  const firstSlot = new Map<number, number>();
  const slots: number[] = [];
  for (const id of ids) {
    if (!firstSlot.has(id)) firstSlot.set(id, slots.length);
    slots.push(firstSlot.get(id) as number);
  }
  const distinct = firstSlot.size;
  const slotOf = new Int32Array(Math.max(...ids) + 1).fill(-1);
  for (const [id, slot] of firstSlot) slotOf[id] = slot;
  const start = new Float64Array(distinct + 1);
  let grouped = true;
  let last = -1;
  for (let r = 0; r < n; r++) {
    const slot = slotOf[sid[r] as number] as number;
    start[slot + 1] = (start[slot + 1] as number) + 1;
    if (slot !== last) {
      if (slot < last) grouped = false;
      last = slot;
    } else if ((ts[r] as number) <= (ts[r - 1] as number)) grouped = false;
  }
  for (let s = 0; s < distinct; s++) start[s + 1] = (start[s + 1] as number) + (start[s] as number);
  let order: Uint32Array | null = null;
  if (!grouped) {
    // A stable counting sort by series, then a sort by time of each series whose rows are not in order.
    order = new Uint32Array(n);
    const next = start.slice(0, distinct);
    for (let r = 0; r < n; r++) {
      const slot = slotOf[sid[r] as number] as number;
      order[next[slot] as number] = r;
      next[slot] = (next[slot] as number) + 1;
    }
    for (let s = 0; s < distinct; s++) {
      const part = order.subarray(start[s] as number, start[s + 1] as number);
      for (let i = 1; i < part.length; i++) {
        if ((ts[part[i] as number] as number) <= (ts[part[i - 1] as number] as number)) {
          part.sort((a, b) => (ts[a] as number) - (ts[b] as number));
          break;
        }
      }
    }
  }
  const from = new Float64Array(ids.length);
  const to = new Float64Array(ids.length);
  slots.forEach((slot, k) => {
    from[k] = start[slot] as number;
    to[k] = start[slot + 1] as number;
  });
  return { from, to, order };
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
  const resolution = at ?? coarsest;
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
  const data = known.length > 0 ? await aggregate(ctx, known, g, resolution, aggregator, query.hours) : null;

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
  hours?: readonly number[],
): Promise<Aggregates> {
  const ids = known.map((s) => int(s.id)).join(',');
  const col = resolution === 'raw' ? 'ts' : 'bucket';
  const { index, lo, hi, atStart } = indexSql(g, col);
  const delta = aggregator === 'delta';
  // A counter's bucket also takes the reading stamped on its end (interval-ending): delta reads
  // the row at `hi`, and with `hours` the first row of the hour after each hour asked for.
  // Written as one IN list first (the hours and the hours after them) and the test of the hour's
  // first row after it: an OR of two IN lists cost DuckDB 3× the whole read (bench/README.md).
  const hourList = hours?.map((h) => int(h / HOUR)).join(',');
  const withNext = [...new Set(hours?.flatMap((h) => [h / HOUR, h / HOUR + 1]))].map(int).join(',');
  const inHours = !hours
    ? ''
    : delta
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
    lastTs: new Float64Array(size),
    maxGap: new Float64Array(size),
  };
  if (hours?.length === 0) return out;
  const edges: Edges | null = delta
    ? {
        inc: new Float64Array(known.length * (n + 1)).fill(Number.NaN),
        count: new Float64Array(known.length * (n + 1)),
      }
    : null;
  if (resolution === 'raw' && g.kind === 'fixed' && !hours) {
    if (aggregateRecent(known, g, aggregator, out, edges)) {
      if (edges) closeOnEdges(out, edges, n, null);
      return out;
    }
  }
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
        max(ts)::DOUBLE, coalesce(max(gap), 0)::DOUBLE, ${edge},
        coalesce(max(ts) FILTER (WHERE pv IS NULL)::DOUBLE, 'NaN'), coalesce(arg_min(value, ts) FILTER (WHERE pv IS NULL), 'NaN')
      FROM s WHERE TRUE${inHours} GROUP BY series_id, bi`;
    prev = await ctx.reader().run((c) => lastBefore(c, known, lo));
  } else if (identityRollup(g, resolution)) {
    // One stored row per series and bucket: read as they are.
    const edge = delta ? `coalesce(inc_edge, 'NaN')` : `'NaN'::DOUBLE`;
    sql = `SELECT series_id::DOUBLE, (${index})::DOUBLE, cnt::DOUBLE, coalesce(${rollupValue(aggregator, false)}, 'NaN'),
        last_ts::DOUBLE, coalesce(max_gap, 0)::DOUBLE, ${edge}
      FROM ${resolution} WHERE series_id IN (${ids}) AND bucket >= ${int(lo)} AND bucket ${below} ${int(hi)}${inHours}`;
  } else {
    const edge = delta ? `coalesce(max(inc_edge) FILTER (WHERE ${atStart}), 'NaN')` : `'NaN'::DOUBLE`;
    sql = `SELECT series_id::DOUBLE, (${index})::DOUBLE AS bi, sum(cnt)::DOUBLE,
        coalesce(${rollupValue(aggregator, true)}, 'NaN'), max(last_ts)::DOUBLE, coalesce(max(max_gap), 0)::DOUBLE, ${edge}
      FROM ${resolution} WHERE series_id IN (${ids}) AND bucket >= ${int(lo)} AND bucket ${below} ${int(hi)}${inHours}
      GROUP BY series_id, bi`;
  }
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
  for (let i = 0; i < sid.length; i++) {
    const id = sid[i] as number;
    const b = bi[i] as number;
    const r = row.get(id) as number;
    // Raw: the first sample of the series in the range steps from the last sample before it.
    const first = fts?.[i] as number;
    const p = Number.isNaN(first) ? undefined : prev?.get(id);
    const x = p && delta ? counterIncrement(p.value, fv?.[i] as number) : 0;
    if (edges) {
      const e = r * (n + 1) + b;
      // A reading on the start has an increment (0 for a series' first): NaN means none.
      edges.inc[e] = p && g.kind === 'fixed' && first === g.base + b * g.width ? x : (ei[i] as number);
      edges.count[e] = Number.isNaN(edges.inc[e] as number) ? 0 : 1;
    }
    if (b >= n) continue; // the reading on the range's end: its edge only
    const at = r * n + b;
    out.cnt[at] = cnt[i] as number;
    out.value[at] = val[i] as number;
    out.lastTs[at] = lts[i] as number;
    out.maxGap[at] = gap[i] as number;
    if (p) {
      out.maxGap[at] = Math.max(out.maxGap[at] as number, first - p.ts);
      if (delta) {
        const v = out.value[at] as number;
        out.value[at] = (Number.isNaN(v) ? 0 : v) + x;
      }
    }
  }
  if (edges) closeOnEdges(out, edges, n, hours ? selectedBuckets(g, hours) : null);
  return out;
}

/** Per series, per bucket index 0…n: the increment and count (0/1) of a reading stamped on the bucket's start. */
interface Edges {
  inc: Float64Array;
  count: Float64Array;
}

/**
 * Interval-ending counters: a reading stamped on a bucket's start closes the bucket before it,
 * so bucket i's increments are those of its samples, less its start reading's, plus the next
 * bucket's start reading's; its count is the readings that close in it. Buckets outside
 * `selected` (hours not asked for) stay empty.
 */
function closeOnEdges(out: Aggregates, edges: Edges, n: number, selected: Uint8Array | null): void {
  for (let r = 0; r < out.row.size; r++) {
    for (let i = 0; i < n; i++) {
      const at = r * n + i;
      const e0 = r * (n + 1) + i;
      if (selected && selected[i] === 0) {
        out.cnt[at] = 0;
        out.value[at] = Number.NaN;
        continue;
      }
      const c0 = edges.count[e0] as number;
      const c1 = edges.count[e0 + 1] as number;
      const cnt = (out.cnt[at] as number) - c0 + c1;
      let v = out.value[at] as number;
      if (Number.isNaN(v)) v = 0;
      if (c0 > 0) v -= edges.inc[e0] as number;
      if (c1 > 0) v += edges.inc[e0 + 1] as number;
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
function indexSql(g: Grid, col: string): { index: string; lo: number; hi: number; atStart: string } {
  switch (g.kind) {
    case 'fixed':
      return {
        index: `(${col} - ${int(g.base)}) // ${int(g.width)}`,
        lo: g.base,
        hi: g.base + g.n * g.width,
        atStart: `(${col} - ${int(g.base)}) % ${int(g.width)} = 0`,
      };
    case 'days':
      return {
        index: `(${col} - ${int(g.d0)}) // ${int(g.k)}`,
        lo: g.d0,
        hi: g.d0 + g.n * g.k,
        atStart: `(${col} - ${int(g.d0)}) % ${int(g.k)} = 0`,
      };
    case 'month':
      return {
        index: `year(DATE '1970-01-01' + ${col}::INTEGER) * 12 + month(DATE '1970-01-01' + ${col}::INTEGER) - 1 - ${int(g.m0)}`,
        lo: PlantCalendar.firstDayOfMonth(g.m0),
        hi: PlantCalendar.firstDayOfMonth(g.m0 + g.n),
        atStart: `day(DATE '1970-01-01' + ${col}::INTEGER) = 1`,
      };
    case 'year':
      return {
        index: `year(DATE '1970-01-01' + ${col}::INTEGER) - ${int(g.m0 / 12)}`,
        lo: PlantCalendar.firstDayOfMonth(g.m0),
        hi: PlantCalendar.firstDayOfMonth(g.m0 + g.n * 12),
        atStart: `dayofyear(DATE '1970-01-01' + ${col}::INTEGER) = 1`,
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
  const bucketOf = (t: number) => Math.floor((t - g.base) / g.width);
  const startOf = (b: number) => g.base + b * g.width;
  for (const { st, from, prev } of plan) {
    const r = out.row.get(st.id) as number;
    const base = r * g.n;
    // A counter's last bucket also takes the reading stamped on the range's end.
    const to = lowerBound(st.recentTs, edges ? hi + 1 : hi);
    aggregateRun(st.recentTs, st.recentValues, from, to, prev, bucketOf, startOf, (b, a) => {
      if (edges) {
        edges.inc[r * (g.n + 1) + b] = a.edge ?? Number.NaN;
        edges.count[r * (g.n + 1) + b] = a.edge === null ? 0 : 1;
      }
      if (b >= g.n) return;
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
                    : Number.NaN;
      out.cnt[base + b] = a.cnt;
      out.value[base + b] = value;
      out.lastTs[base + b] = a.lastTs;
      out.maxGap[base + b] = a.maxGap ?? 0;
    });
  }
  return true;
}
