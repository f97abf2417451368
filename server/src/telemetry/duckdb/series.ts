/**
 * What the DuckDB store keeps in memory per series: id, first sample, typical interval, latest
 * value and the last minutes of points (realtime reads, minute rollups of in-order batches),
 * and the pure functions that keep them up to date.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { MINUTE } from '@kilowatch/contract/calendar';
import { nextInterval } from '../buckets.ts';
import { counterIncrement } from '../counter.ts';
import type { MinuteAggregate, OpenRow } from './rollup-rows.ts';
import { columns, int } from './schema.ts';

export interface SeriesState {
  id: number;
  thingId: number;
  metric: string;
  /** Oldest sample ever written (kept when retention removes raw points). */
  firstTs: number | null;
  /** Typical spacing of samples (estimate), ms. */
  intervalMs: number | null;
  persistedInterval: number | null;
  persistedFirstTs: number | null;
  latestTs: number | null;
  latestValue: number;
  /** Recent points in memory, oldest first: every stored point at or after `recentFrom`. */
  recentTs: number[];
  recentValues: number[];
  recentFrom: number;
  /**
   * The stored hour and day rows of `latestTs` (undefined: not in memory), which an in-order
   * batch's hour and day rows go on from (rollups.ts).
   */
  openHour: OpenRow | undefined;
  openDay: OpenRow | undefined;
  /** The group of the batch being committed (scratch). */
  group: Group | undefined;
}

/** The points of one series in a batch being committed. */
export interface Group {
  st: SeriesState;
  ts: number[];
  values: number[];
  /** Its series' last hour and day rows when the commit computed them in JS. */
  hour?: OpenRow;
  day?: OpenRow;
}

/**
 * Recent points kept in memory per series (realtime reads, minute rollups of in-order batches).
 * The cap holds the console's last 5 minutes for series sampled up to ≈ 6.8 times a second (the
 * soak's 5 a second outran 1,024, and its last 5 minutes of 10 series went to a scan of every
 * series' recent raw points, ≈ 200 ms under ingest); at most 36 KB a series.
 */
const RECENT_WINDOW = 15 * MINUTE;
const RECENT_CAP = 2048;
/**
 * Points past the window are dropped once this many are (the window then holds up to this many
 * more): a cut per commit copied the whole window, 2 × 1,024 numbers (the cap then) for a commit of one or two
 * points, most of the main thread's garbage at a steady 10,000 points/s (bench/README.md).
 */
const RECENT_SLACK = 256;

/** Series by thing and metric (two levels: no key string built per point) and by id. */
export class SeriesTable {
  private readonly things = new Map<number, Map<string, SeriesState>>();
  readonly byId = new Map<number, SeriesState>();
  private nextId = 1;

  get(thingId: number, metric: string): SeriesState | undefined {
    return this.things.get(thingId)?.get(metric);
  }

  /** A new series with the next free id (stored by the commit that creates it). */
  create(thingId: number, metric: string): SeriesState {
    const st = blank(this.nextId++, thingId, metric, null, null);
    this.add(st);
    return st;
  }

  add(st: SeriesState): void {
    let m = this.things.get(st.thingId);
    if (!m) {
      m = new Map();
      this.things.set(st.thingId, m);
    }
    m.set(st.metric, st);
    this.byId.set(st.id, st);
    this.nextId = Math.max(this.nextId, st.id + 1);
  }

  delete(st: SeriesState): void {
    this.things.get(st.thingId)?.delete(st.metric);
    this.byId.delete(st.id);
  }
}

function blank(
  id: number,
  thingId: number,
  metric: string,
  firstTs: number | null,
  intervalMs: number | null,
): SeriesState {
  return {
    id,
    thingId,
    metric,
    firstTs,
    intervalMs,
    persistedInterval: intervalMs,
    persistedFirstTs: firstTs,
    latestTs: null,
    latestValue: 0,
    recentTs: [],
    recentValues: [],
    recentFrom: 0,
    openHour: undefined,
    openDay: undefined,
    group: undefined,
  };
}

/** Loads every series, its latest value and its recent window from the tables (on open). */
export async function loadSeries(c: DuckDBConnection, table: SeriesTable): Promise<void> {
  const [ids, things, metrics, firsts, intervals] = await columns(
    c,
    'SELECT id, thing_id, metric, first_ts::DOUBLE, interval_ms::DOUBLE FROM series',
  );
  for (let i = 0; i < (ids?.length ?? 0); i++) {
    table.add(
      blank(
        ids?.[i] as number,
        things?.[i] as number,
        metrics?.[i] as string,
        firsts?.[i] as number | null,
        intervals?.[i] as number | null,
      ),
    );
  }
  // Latest values: the day rollups hold every series' last sample and are never pruned.
  const [sids, lastTs, lastValues] = await columns(
    c,
    'SELECT series_id, max(last_ts)::DOUBLE, arg_max(vlast, last_ts) FROM day GROUP BY series_id',
  );
  for (let i = 0; i < (sids?.length ?? 0); i++) {
    const st = table.byId.get(sids?.[i] as number);
    if (!st) continue;
    st.latestTs = lastTs?.[i] as number;
    st.latestValue = lastValues?.[i] as number;
    st.recentFrom = st.latestTs + 1;
  }
  await loadRecent(c, table);
}

/**
 * Fills each series' recent window (its last RECENT_WINDOW, at most RECENT_CAP points) from the
 * raw table, as writes since the start would have: "last minutes" reads and the minute rollups
 * of in-order batches then work from memory after a restart too. One query over the raw table's
 * newest part: series whose last point is more than RECENT_WINDOW older than the newest of all
 * start with an empty window (their reads go to the table, as before).
 */
async function loadRecent(c: DuckDBConnection, table: SeriesTable): Promise<void> {
  let newest = Number.NEGATIVE_INFINITY;
  for (const st of table.byId.values()) {
    if (st.latestTs !== null && st.latestTs > newest) newest = st.latestTs;
  }
  if (!Number.isFinite(newest)) return;
  const from = newest - 2 * RECENT_WINDOW;
  const [sids, tss, vals] = await columns(
    c,
    `SELECT series_id, ts::DOUBLE, value FROM (
       SELECT series_id, ts, value, max(ts) OVER (PARTITION BY series_id) AS lt,
         row_number() OVER (PARTITION BY series_id ORDER BY ts DESC) AS k
       FROM raw WHERE ts >= ${int(from)})
     WHERE ts >= lt - ${RECENT_WINDOW} AND k <= ${RECENT_CAP}
     ORDER BY series_id, ts`,
  );
  const n = sids?.length ?? 0;
  for (let i = 0; i < n; ) {
    const id = sids?.[i] as number;
    let j = i;
    while (j < n && sids?.[j] === id) j++;
    const st = table.byId.get(id);
    const ts = (tss?.slice(i, j) ?? []) as number[];
    const values = (vals?.slice(i, j) ?? []) as number[];
    i = j;
    const lt = st?.latestTs ?? null;
    // Only a complete window: the series' newest raw point is its latest, and the window's
    // start is inside the range read.
    if (!st || lt === null || ts[ts.length - 1] !== lt || lt - RECENT_WINDOW < from) continue;
    st.recentTs = ts;
    st.recentValues = values;
    st.recentFrom = ts.length >= RECENT_CAP ? (ts[0] as number) : lt - RECENT_WINDOW;
  }
}

/**
 * Typical spacing of a series: an exponential average of the steps between in-order samples,
 * each step capped at 4 × the estimate so a gap moves it little (a real change of rate moves it
 * within tens of samples). Late batches leave it as it is.
 */
export function estimateInterval(st: SeriesState, g: Group): number | null {
  if (st.latestTs !== null && (g.ts[0] as number) <= st.latestTs) return st.intervalMs;
  return nextInterval(st.intervalMs, st.latestTs, g.ts);
}

/** First index of a sorted array whose value is ≥ x. */
export function lowerBound(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((xs[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Merges a committed group into the series' recent points and drops what is older than the window
 * (or beyond RECENT_CAP points) once RECENT_SLACK points are: memory then holds every stored point
 * from `recentFrom` on, at least the window's. An in-order group is appended from where the window
 * will start, so a group larger than the window is not copied in whole only to be cut.
 */
export function remember(st: SeriesState, g: Group): void {
  const old = st.recentTs;
  const n = g.ts.length;
  const first = lowerBound(g.ts, st.recentFrom);
  if (first < n && old.length > 0 && (g.ts[first] as number) <= (old[old.length - 1] as number)) {
    mergeRecent(st, g, first);
    return;
  }
  const total = old.length + n - first;
  if (total === 0) return;
  /** Time of entry i of the window followed by the group's points from `first`. */
  const at = (i: number) => (i < old.length ? old[i] : g.ts[first + i - old.length]) as number;
  const cut = at(total - 1) - RECENT_WINDOW;
  let start = lowerBound(old, cut);
  if (start === old.length) start += Math.max(0, lowerBound(g.ts, cut) - first);
  const k = Math.max(start, total - RECENT_CAP);
  if (k < RECENT_SLACK) {
    for (let i = first; i < n; i++) {
      old.push(g.ts[i] as number);
      st.recentValues.push(g.values[i] as number);
    }
    return;
  }
  st.recentFrom = at(k - 1) + 1;
  if (k >= old.length) {
    st.recentTs = g.ts.slice(first + k - old.length);
    st.recentValues = g.values.slice(first + k - old.length);
    return;
  }
  const ts = old.slice(k);
  const values = st.recentValues.slice(k);
  for (let i = first; i < n; i++) {
    ts.push(g.ts[i] as number);
    values.push(g.values[i] as number);
  }
  st.recentTs = ts;
  st.recentValues = values;
}

/**
 * Drops the recent points before `t`, which retention deleted from the store: memory then holds
 * every stored point from `t` on (a window left behind by a series that stopped would otherwise
 * answer for points no longer stored).
 */
export function forgetBefore(st: SeriesState, t: number): void {
  if (st.recentFrom >= t) return;
  const k = lowerBound(st.recentTs, t);
  if (k > 0) {
    st.recentTs = st.recentTs.slice(k);
    st.recentValues = st.recentValues.slice(k);
  }
  st.recentFrom = t;
}

/** remember() of a group that overlaps the recent points: merged, a new point replacing a stored one. */
function mergeRecent(st: SeriesState, g: Group, first: number): void {
  const mts: number[] = [];
  const mvs: number[] = [];
  const { recentTs: ts, recentValues: values } = st;
  let i = 0;
  let j = first;
  while (i < ts.length || j < g.ts.length) {
    const a = i < ts.length ? (ts[i] as number) : Number.POSITIVE_INFINITY;
    const b = j < g.ts.length ? (g.ts[j] as number) : Number.POSITIVE_INFINITY;
    if (b <= a) {
      mts.push(b);
      mvs.push(g.values[j++] as number);
      if (a === b) i++; // the new point replaces the stored one
    } else {
      mts.push(a);
      mvs.push(values[i++] as number);
    }
  }
  const newest = mts[mts.length - 1] as number;
  const k = Math.max(lowerBound(mts, newest - RECENT_WINDOW), mts.length - RECENT_CAP);
  if (k > 0) st.recentFrom = (mts[k - 1] as number) + 1;
  st.recentTs = k > 0 ? mts.slice(k) : mts;
  st.recentValues = k > 0 ? mvs.slice(k) : mvs;
}

/**
 * Aggregates of a run of samples (oldest first) per bucket, like the SQL over raw points;
 * `bucketOf` names a sample's bucket, `startOf` gives that bucket's start (for `edge`).
 */
export function aggregateRun(
  ts: ArrayLike<number>,
  values: ArrayLike<number>,
  from: number,
  to: number,
  prev: { ts: number; value: number } | null,
  bucketOf: (ts: number) => number,
  startOf: (bucket: number) => number,
  each: (bucket: number, a: MinuteAggregate) => void,
): void {
  let pTs = prev ? prev.ts : null;
  let pV = prev ? prev.value : null;
  let cur: MinuteAggregate | undefined;
  let curBucket = 0;
  for (let i = from; i < to; i++) {
    const t = ts[i] as number;
    const v = values[i] as number;
    const b = bucketOf(t);
    if (!cur || b !== curBucket) {
      if (cur) each(curBucket, cur);
      curBucket = b;
      cur = {
        cnt: 0,
        sum: 0,
        min: v,
        max: v,
        first: v,
        firstTs: t,
        last: v,
        lastTs: t,
        inc: 0,
        maxGap: null,
        minTs: t,
        maxTs: t,
        edge: null,
      };
    }
    const inc = counterIncrement(pV, v);
    if (cur.cnt === 0 && t === startOf(b)) cur.edge = inc;
    cur.cnt++;
    cur.sum += v;
    if (v < cur.min) {
      cur.min = v;
      cur.minTs = t;
    }
    if (v > cur.max) {
      cur.max = v;
      cur.maxTs = t;
    }
    cur.last = v;
    cur.lastTs = t;
    cur.inc += inc;
    if (pTs !== null) cur.maxGap = cur.maxGap === null ? t - pTs : Math.max(cur.maxGap, t - pTs);
    pTs = t;
    pV = v;
  }
  if (cur) each(curBucket, cur);
}

/**
 * About how many raw points the series hold in [lo, hi), from their sampling intervals: a read of
 * few enough is aggregated in JS over the points (reader/buckets.ts), or read without a count
 * first (reader/points.ts).
 */
export function rawRowsAbout(known: readonly SeriesState[], lo: number, hi: number): number {
  let rows = 0;
  for (const st of known) {
    if (st.firstTs === null || st.latestTs === null) continue;
    const span = Math.min(hi, st.latestTs + 1) - Math.max(lo, st.firstTs);
    if (span > 0) rows += st.intervalMs ? span / st.intervalMs + 1 : 1;
  }
  return rows;
}
