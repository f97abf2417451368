import { MINUTE } from '@kilowatch/contract/calendar';
import { bucketWidthFor, type Grid, gridOf, type Resolution, resolutionFor } from '../../buckets.ts';
import type { Point, SeriesKey } from '../../store.ts';
import { minuteRows, readResolution } from '../minutes.ts';
import { type CachedRows, firstAtOrAfter } from '../rollup-cache.ts';
import { columns, int } from '../schema.ts';
import { lowerBound, type SeriesState } from '../series.ts';
import { indexSql } from './buckets.ts';
import { cachedRows } from './cached-rollups.ts';
import type { ReadContext } from './context.ts';
import { pointColumns, points } from './points.ts';

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
    const pts = await fewRawPoints(ctx, series, start, end, maxPoints);
    if (pts) return pts;
  }
  const width = bucketWidthFor(need);
  const g = gridOf(ctx.calendar, { widthMs: width }, start, end);
  const coarsest = resolutionFor(g);
  const resolution = readResolution(g, coarsest, ctx.horizon);
  const { mins, minTs, maxs, maxTs } = await extremes(ctx, st, g, resolution);
  const out: Point[] = [];
  const push = (ts: number, value: number) => {
    if (ts >= start && ts < end) out.push({ thingId: st.thingId, metric: st.metric, ts, value });
  };
  for (let i = 0; i < mins.length; i++) {
    const a = minTs[i] as number;
    const b = maxTs[i] as number;
    if (a === b) push(a, mins[i] as number);
    else if (a < b) {
      push(a, mins[i] as number);
      push(b, maxs[i] as number);
    } else {
      push(b, maxs[i] as number);
      push(a, mins[i] as number);
    }
  }
  return out;
}

/**
 * Each bucket's smallest and largest value with their times, buckets without samples left out:
 * hour rows from memory (cached-rollups.ts) where they answer, else in SQL.
 */
async function extremes(
  ctx: ReadContext,
  st: SeriesState,
  g: Grid,
  resolution: Resolution,
): Promise<{ mins: number[]; minTs: number[]; maxs: number[]; maxTs: number[] }> {
  const { index, lo, hi } = indexSql(g, resolution === 'raw' ? 'ts' : 'bucket');
  if (resolution === 'raw' && g.kind === 'fixed' && st.recentFrom <= lo) {
    // The recent points in memory hold the range (a chart of the last minutes of a fast series).
    const { recentTs: ts, recentValues: values } = st;
    const run = { key: ts, min: values, minTs: ts, max: values, maxTs: ts };
    return extremesOf(run, lowerBound(ts, lo), lowerBound(ts, hi), g);
  }
  if (resolution === 'hour' && g.kind === 'fixed') {
    const rows = await cachedRows(ctx, [st], 'hour', lo);
    if (rows) {
      const c = rows[0] as CachedRows;
      const run = { key: c.bucket, min: c.min, minTs: c.minTs, max: c.max, maxTs: c.maxTs };
      return extremesOf(run, firstAtOrAfter(c, lo), firstAtOrAfter(c, hi), g);
    }
  }
  const table =
    resolution === 'minute'
      ? `(${await ctx.reader().run((c) => minuteRows(c, [st.id], lo, hi, ctx.horizon.at))})`
      : resolution;
  const sql =
    resolution === 'raw'
      ? `SELECT (${index})::INTEGER AS bi, min(value), arg_min(ts, value)::DOUBLE, max(value), arg_max(ts, value)::DOUBLE
         FROM raw WHERE series_id = ${int(st.id)} AND ts >= ${int(lo)} AND ts < ${int(hi)} GROUP BY bi ORDER BY bi`
      : `SELECT (${index})::INTEGER AS bi, min(vmin), arg_min(min_ts, vmin)::DOUBLE, max(vmax), arg_max(max_ts, vmax)::DOUBLE
         FROM ${table} WHERE series_id = ${int(st.id)} AND bucket >= ${int(lo)} AND bucket < ${int(hi)}
         GROUP BY bi ORDER BY bi`;
  const [, mins, minTs, maxs, maxTs] = (await ctx.reader().run((c) => columns(c, sql))) as number[][];
  return { mins: mins ?? [], minTs: minTs ?? [], maxs: maxs ?? [], maxTs: maxTs ?? [] };
}

/** A downsample() call waiting for a series' raw points. */
interface Waiting {
  series: SeriesKey;
  answer: (points: Point[] | null) => void;
  fail: (error: unknown) => void;
}

/** The calls waiting, per store and range. */
const waiting = new WeakMap<ReadContext, Map<string, Waiting[]>>();

/**
 * A series' raw points over [start, end), or null when there are more than `maxPoints`. Calls
 * made together (a chart of ten things asks for each at once) share one read of all their series
 * (pointColumns) instead of a DuckDB query each, which two reader lanes run five after five.
 */
function fewRawPoints(
  ctx: ReadContext,
  series: SeriesKey,
  start: number,
  end: number,
  maxPoints: number,
): Promise<Point[] | null> {
  const ranges = waiting.get(ctx) ?? new Map<string, Waiting[]>();
  waiting.set(ctx, ranges);
  const key = `${start}:${end}:${maxPoints}`;
  let queue = ranges.get(key);
  if (!queue) {
    const entries: Waiting[] = [];
    queue = entries;
    ranges.set(key, entries);
    queueMicrotask(() => {
      ranges.delete(key);
      readTogether(ctx, entries, start, end, maxPoints);
    });
  }
  const entries = queue;
  return new Promise((answer, fail) => {
    entries.push({ series, answer, fail });
  });
}

function readTogether(
  ctx: ReadContext,
  entries: readonly Waiting[],
  start: number,
  end: number,
  maxPoints: number,
): void {
  const alone = (e: Waiting) =>
    points(ctx, e.series, start, end, maxPoints + 1).then(
      (p) => e.answer(p.length <= maxPoints ? p : null),
      e.fail,
    );
  if (entries.length === 1) {
    void alone(entries[0] as Waiting);
    return;
  }
  const limit = entries.length * (maxPoints + 1);
  pointColumns(
    ctx,
    entries.map((e) => e.series),
    start,
    end,
    limit,
  ).then(
    (c) => {
      // A full page may have left series out or cut one: each is then read alone.
      if (c.ts.length >= limit) {
        for (const e of entries) void alone(e);
        return;
      }
      const out: Point[][] = entries.map(() => []);
      for (let r = 0; r < c.ts.length; r++) {
        const k = c.index[r] as number;
        const { thingId, metric } = (entries[k] as Waiting).series;
        (out[k] as Point[]).push({ thingId, metric, ts: c.ts[r] as number, value: c.values[r] as number });
      }
      entries.forEach((e, k) => {
        const p = out[k] as Point[];
        e.answer(p.length <= maxPoints ? p : null);
      });
    },
    (error: unknown) => {
      for (const e of entries) e.fail(error);
    },
  );
}

/**
 * Each bucket's smallest and largest value with their times over entries `from` … `to - 1` of a
 * sorted run (raw points: each its own extremes; hour rows: theirs), the earliest entry of a
 * bucket winning a tie.
 */
function extremesOf(
  run: Record<'key' | 'min' | 'minTs' | 'max' | 'maxTs', ArrayLike<number>>,
  from: number,
  to: number,
  g: Extract<Grid, { kind: 'fixed' }>,
): { mins: number[]; minTs: number[]; maxs: number[]; maxTs: number[] } {
  const out = { mins: [] as number[], minTs: [] as number[], maxs: [] as number[], maxTs: [] as number[] };
  const bucketOf = (i: number) => Math.floor(((run.key[i] as number) - g.base) / g.width);
  let i = from;
  while (i < to) {
    const b = bucketOf(i);
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    let minTs = 0;
    let maxTs = 0;
    for (; i < to && bucketOf(i) === b; i++) {
      if ((run.min[i] as number) < min) {
        min = run.min[i] as number;
        minTs = run.minTs[i] as number;
      }
      if ((run.max[i] as number) > max) {
        max = run.max[i] as number;
        maxTs = run.maxTs[i] as number;
      }
    }
    out.mins.push(min);
    out.minTs.push(minTs);
    out.maxs.push(max);
    out.maxTs.push(maxTs);
  }
  return out;
}
