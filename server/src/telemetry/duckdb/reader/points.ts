import type { DuckDBConnection } from '@duckdb/node-api';
import type { Point, PointColumns, SeriesKey } from '../../store.ts';
import { columns, doubleColumns, int } from '../schema.ts';
import { lowerBound, rawRowsAbout, type SeriesState } from '../series.ts';
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
  const cap = Math.floor(limit);
  // Well under the limit by the series' intervals: one scan, no count first.
  const expected = rawRowsAbout(
    known.map(({ st }) => st),
    start,
    end,
  );
  const few = after === undefined && 2 * expected <= cap;
  return ctx.reader().run(async (c) => {
    if (few) {
      const all = await allPointsOnDisk(c, known, start, end, cap);
      if (all) return all;
    }
    return pointColumnsOnDisk(c, known, start, end, cap, after);
  });
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
    const rows = (await doubleColumns(
      c,
      `SELECT series_id::DOUBLE, ts::DOUBLE, coalesce(value, 'NaN'::DOUBLE) FROM raw
       WHERE series_id IN (${idList(chosen.map((k) => k.st))}) AND ${range}`,
    )) as Rows;
    gather(chosen, rows, out, resume);
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

/** Raw rows as read: series id, time, value. */
type Rows = [Float64Array, Float64Array, Float64Array];

/**
 * `pointColumns` from the raw table in one scan, when the series' intervals say the range holds
 * well under `limit` points: no count first, nor the snapshot two reads need. Null when they are
 * more than `limit` after all (the caller then pages).
 */
async function allPointsOnDisk(
  c: DuckDBConnection,
  known: readonly { index: number; st: SeriesState }[],
  start: number,
  end: number,
  limit: number,
): Promise<PointColumns | null> {
  const ids = [...new Set(known.map(({ st }) => int(st.id)))].join(',');
  const rows = (await doubleColumns(
    c,
    `SELECT series_id::DOUBLE, ts::DOUBLE, coalesce(value, 'NaN'::DOUBLE) FROM raw
     WHERE series_id IN (${ids}) AND ts >= ${int(Math.ceil(start))} AND ts < ${int(Math.ceil(end))} LIMIT ${int(Math.min(limit, 2 ** 31) + 1)}`,
  )) as Rows;
  if (rows[0].length > limit) return null;
  // A series asked for twice is answered twice.
  const counts = new Map<number, number>();
  for (const id of rows[0]) counts.set(id, (counts.get(id) ?? 0) + 1);
  let size = 0;
  for (const { st } of known) size += counts.get(st.id) ?? 0;
  if (size > limit) return null;
  const out = { index: new Float64Array(size), ts: new Float64Array(size), values: new Float64Array(size) };
  gather(known, rows, out, undefined);
  return out;
}

/**
 * Copies `rows` into `out` in the order of `entries` and oldest first, as many as `out` holds;
 * the first series asked for (index 0) from after `resume` when given.
 */
function gather(
  entries: readonly { index: number; st: SeriesState }[],
  [sid, ts, values]: Rows,
  out: PointColumns,
  resume: number | undefined,
): void {
  const size = out.ts.length;
  const { from, to, order } = groupBySeries(
    entries.map((k) => k.st.id),
    sid,
    ts,
  );
  let at = 0;
  entries.forEach(({ index }, k) => {
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
