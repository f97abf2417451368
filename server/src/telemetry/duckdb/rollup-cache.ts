/**
 * Hour and day rollup rows of recently read series, kept in memory so a chart of a month by day or
 * a day by hour is answered without a DuckDB statement: one costs 0.4–0.6 ms before it scans
 * anything, more than the whole answer may take (docs/telemetry-store.md "Hour and day rows from
 * memory"). An entry holds every stored row of its series and level from its `from` on, and stays
 * so: the writer appends the rows its in-order commits compute in JavaScript (`committed`), and
 * drops the entry of a series whose rows a commit recomputed in SQL (late points, history,
 * resent points). Retention clears the hour level. Entries are dropped least recently read
 * first once their bytes pass the budget.
 */
import type { RollupRows } from './rollup-rows.ts';

export type Level = 'hour' | 'day';

/** The columns of one series' rows at one level, oldest bucket first, `length` of them in use. */
export interface CachedRows {
  length: number;
  /** Start ms of the hour, or the plant day's number. */
  bucket: Float64Array;
  cnt: Float64Array;
  sum: Float64Array;
  min: Float64Array;
  max: Float64Array;
  first: Float64Array;
  firstTs: Float64Array;
  last: Float64Array;
  lastTs: Float64Array;
  inc: Float64Array;
  /** Longest step into or inside the bucket, 0 where none (SQL NULL; steps are positive). */
  maxGap: Float64Array;
  /** Increment of the reading stamped on the bucket's start, NaN where none. */
  edge: Float64Array;
  /** Times of the bucket's smallest and largest values (downsampling's points). */
  minTs: Float64Array;
  maxTs: Float64Array;
}

/** What one cached row costs: fourteen doubles. */
export const ROW_BYTES = 14 * 8;

/** The columns a stored row is read in (rollupRowsSql), every one a DOUBLE, NaN for NULL. */
export const CACHED_COLUMNS =
  "bucket::DOUBLE, cnt::DOUBLE, vsum, vmin, vmax, vfirst, first_ts::DOUBLE, vlast, last_ts::DOUBLE, inc, coalesce(max_gap, 0)::DOUBLE, coalesce(inc_edge, 'NaN'::DOUBLE), min_ts::DOUBLE, max_ts::DOUBLE";

interface Entry {
  rows: CachedRows;
  /** Every stored row with a bucket at or after this is in `rows`. */
  from: number;
}

function allocate(capacity: number): CachedRows {
  const column = () => new Float64Array(capacity);
  return {
    length: 0,
    bucket: column(),
    cnt: column(),
    sum: column(),
    min: column(),
    max: column(),
    first: column(),
    firstTs: column(),
    last: column(),
    lastTs: column(),
    inc: column(),
    maxGap: column(),
    edge: column(),
    minTs: column(),
    maxTs: column(),
  };
}

const COLUMNS = [
  'bucket',
  'cnt',
  'sum',
  'min',
  'max',
  'first',
  'firstTs',
  'last',
  'lastTs',
  'inc',
  'maxGap',
  'edge',
  'minTs',
  'maxTs',
] as const satisfies readonly (keyof CachedRows)[];

/** Rows read from DuckDB as columns in CACHED_COLUMNS' order, `from` … `to - 1` of them. */
export function rowsOf(columns: readonly Float64Array[], from: number, to: number): CachedRows {
  const rows = allocate(to - from);
  COLUMNS.forEach((name, k) => {
    rows[name].set((columns[k] as Float64Array).subarray(from, to));
  });
  rows.length = to - from;
  return rows;
}

/** First index of `rows` whose bucket is at least `x` (`length` when none is). */
export function firstAtOrAfter(rows: CachedRows, x: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((rows.bucket[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class RollupCache {
  /** By `key(level, id)`, least recently read first. */
  private readonly entries = new Map<number, Entry>();
  /** Entries per level: a commit's rows are applied only when their level holds some. */
  private readonly held = { hour: 0, day: 0 };
  private bytes = 0;
  /** Advances at each change of stored rows the cache hears of; reads take it before they read. */
  private clock = 0;
  /** Per series id, the clock of the last commit that touched it. */
  private readonly touched: number[] = [];
  private readonly cleared = { hour: 0, day: 0 };

  /** `maxBytes` 0: nothing is kept. */
  constructor(readonly maxBytes: number) {}

  /** The clock to pass to `install` for what a read is about to fetch. */
  now(): number {
    return this.clock;
  }

  /** The rows of series `id` from `from` on, if held (and marks them recently read). */
  get(level: Level, id: number, from: number): CachedRows | undefined {
    const k = key(level, id);
    const entry = this.entries.get(k);
    if (!entry || entry.from > from) return undefined;
    this.entries.delete(k);
    this.entries.set(k, entry);
    return entry.rows;
  }

  /**
   * Keeps rows fetched from DuckDB as every stored row of the series from `from` on, unless a
   * change the cache heard of since `readAt` (a commit touching the series, retention) may be
   * missing from them.
   */
  install(level: Level, id: number, from: number, rows: CachedRows, readAt: number): void {
    if (this.maxBytes === 0 || (this.touched[id] ?? 0) > readAt || this.cleared[level] > readAt) return;
    const cost = rows.bucket.length * ROW_BYTES;
    if (cost > this.maxBytes / 4) return;
    this.drop(level, id);
    this.entries.set(key(level, id), { rows, from });
    this.held[level]++;
    this.bytes += cost;
    this.evict();
  }

  /**
   * After a commit is durable: the rows it computed in JS go into the entries held, the entries
   * of the series it recomputed in SQL are dropped. Synchronous, so no read sees half of it.
   */
  committed(
    hours: RollupRows | null,
    days: RollupRows | null,
    touched: Iterable<number>,
    inSql: Iterable<number>,
  ): void {
    this.clock++;
    for (const id of touched) this.touched[id] = this.clock;
    for (const id of inSql) {
      this.drop('hour', id);
      this.drop('day', id);
    }
    if (hours) this.apply('hour', hours);
    if (days) this.apply('day', days);
  }

  /** Rows of the level were deleted (retention): nothing of it is kept, nor kept from reads before. */
  clear(level: Level): void {
    this.clock++;
    this.cleared[level] = this.clock;
    for (const k of [...this.entries.keys()]) if (levelOf(k) === level) this.dropKey(k);
  }

  /** Bytes held (the cache's share of the process's memory). */
  size(): number {
    return this.bytes;
  }

  private apply(level: Level, rows: RollupRows): void {
    if (this.held[level] === 0) return;
    for (let r = 0; r < rows.length; r++) {
      const id = rows.id[r] as number;
      const entry = this.entries.get(key(level, id));
      if (!entry) continue;
      const bucket = rows.bucket[r] as number;
      const at = firstAtOrAfter(entry.rows, bucket);
      if (at < entry.rows.length && entry.rows.bucket[at] !== bucket) {
        // A row inserted between held ones: not what an in-order commit makes; read it again.
        this.drop(level, id);
        continue;
      }
      if (at === entry.rows.length) {
        if (at === entry.rows.bucket.length) this.grow(entry);
        entry.rows.length++;
      }
      const c = entry.rows;
      c.bucket[at] = bucket;
      c.cnt[at] = rows.cnt[r] as number;
      c.sum[at] = rows.sum[r] as number;
      c.min[at] = rows.min[r] as number;
      c.max[at] = rows.max[r] as number;
      c.first[at] = rows.first[r] as number;
      c.firstTs[at] = rows.firstTs[r] as number;
      c.last[at] = rows.last[r] as number;
      c.lastTs[at] = rows.lastTs[r] as number;
      c.inc[at] = rows.inc[r] as number;
      c.maxGap[at] = rows.hasGap[r] === 1 ? (rows.maxGap[r] as number) : 0;
      c.edge[at] = rows.hasEdge[r] === 1 ? (rows.edge[r] as number) : Number.NaN;
      c.minTs[at] = rows.minTs[r] as number;
      c.maxTs[at] = rows.maxTs[r] as number;
    }
    this.evict();
  }

  private grow(entry: Entry): void {
    const old = entry.rows;
    const capacity = Math.max(16, old.bucket.length * 2);
    const rows = allocate(capacity);
    for (const name of COLUMNS) rows[name].set(old[name].subarray(0, old.length));
    rows.length = old.length;
    entry.rows = rows;
    this.bytes += (capacity - old.bucket.length) * ROW_BYTES;
  }

  private drop(level: Level, id: number): void {
    this.dropKey(key(level, id));
  }

  private dropKey(k: number): void {
    const entry = this.entries.get(k);
    if (!entry) return;
    this.bytes -= entry.rows.bucket.length * ROW_BYTES;
    this.held[levelOf(k)]--;
    this.entries.delete(k);
  }

  private evict(): void {
    while (this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) return;
      this.dropKey(oldest.value);
    }
  }
}

const key = (level: Level, id: number): number => id * 2 + (level === 'day' ? 1 : 0);
const levelOf = (k: number): Level => (k % 2 === 1 ? 'day' : 'hour');
