/**
 * Hour and day rollup rows of recently read series, kept in memory so a chart of a month by day or
 * a day by hour is answered without a DuckDB statement: one costs 0.4–0.6 ms before it scans
 * anything, more than the whole answer may take (docs/telemetry-store.md "Reads"). An entry
 * holds every stored row of its series and level from its `from` on, and stays so: the writer
 * appends the rows its in-order commits compute in JavaScript (`committed`), and
 * drops the entry of a series whose rows a commit recomputed in SQL (late points, history,
 * resent points). Rows a read fetched while commits went on are brought up to date with those
 * commits' JS rows before they are kept. Retention clears the hour level. Entries are dropped
 * least recently read first once their bytes pass the budget.
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

/** The columns a stored row is fetched in (reader/cached-rollups.ts), every one a DOUBLE, NaN for NULL. */
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

/** A commit heard of while reads were fetching: replayed onto what they fetched. */
interface Logged {
  clock: number;
  rows: Record<Level, RollupRows | null>;
  inSql: ReadonlySet<number>;
  /** Per level, each series' first row in `rows` (made on first use). */
  firstRow: Partial<Record<Level, Map<number, number>>>;
}

/**
 * Writes commit row `r` of `src` into `rows` (its bucket replacing a held one or following the
 * last); the rows (grown when full), or null when the bucket falls between held ones, which no
 * in-order commit makes.
 */
function put(rows: CachedRows, src: RollupRows, r: number): CachedRows | null {
  const bucket = src.bucket[r] as number;
  const at = firstAtOrAfter(rows, bucket);
  if (at < rows.length && rows.bucket[at] !== bucket) return null;
  let c = rows;
  if (at === c.length) {
    if (at === c.bucket.length) {
      c = allocate(Math.max(16, c.bucket.length * 2));
      for (const name of COLUMNS) c[name].set(rows[name].subarray(0, rows.length));
      c.length = rows.length;
    }
    c.length++;
  }
  c.bucket[at] = bucket;
  c.cnt[at] = src.cnt[r] as number;
  c.sum[at] = src.sum[r] as number;
  c.min[at] = src.min[r] as number;
  c.max[at] = src.max[r] as number;
  c.first[at] = src.first[r] as number;
  c.firstTs[at] = src.firstTs[r] as number;
  c.last[at] = src.last[r] as number;
  c.lastTs[at] = src.lastTs[r] as number;
  c.inc[at] = src.inc[r] as number;
  c.maxGap[at] = src.hasGap[r] === 1 ? (src.maxGap[r] as number) : 0;
  c.edge[at] = src.hasEdge[r] === 1 ? (src.edge[r] as number) : Number.NaN;
  c.minTs[at] = src.minTs[r] as number;
  c.maxTs[at] = src.maxTs[r] as number;
  return c;
}

export class RollupCache {
  /** By `key(level, id)`, least recently read first. */
  private readonly entries = new Map<number, Entry>();
  /** Entries per level: a commit's rows are applied only when their level holds some. */
  private readonly held = { hour: 0, day: 0 };
  private bytes = 0;
  /** Advances at each change of stored rows the cache hears of; a read takes it before it fetches. */
  private clock = 0;
  private readonly cleared = { hour: 0, day: 0 };
  /** The clocks reads in flight started at (how many at each). */
  private readonly reading = new Map<number, number>();
  /** Commits since the oldest read in flight started, oldest first. */
  private log: Logged[] = [];

  /** `maxBytes` 0: nothing is kept. */
  constructor(readonly maxBytes: number) {}

  /** A read is about to fetch rows: its clock, for `install`; `endRead` it once done. */
  startRead(): number {
    this.reading.set(this.clock, (this.reading.get(this.clock) ?? 0) + 1);
    return this.clock;
  }

  endRead(at: number): void {
    const n = (this.reading.get(at) ?? 1) - 1;
    if (n > 0) this.reading.set(at, n);
    else this.reading.delete(at);
    const oldest = this.reading.size > 0 ? Math.min(...this.reading.keys()) : this.clock;
    if (this.log.length > 0 && (this.log[0] as Logged).clock <= oldest)
      this.log = this.log.filter((l) => l.clock > oldest);
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
   * Rows fetched from DuckDB by a read started at `readAt` (`startRead`), brought up to date
   * with the commits since (their JS rows put in again: a row is the whole bucket's, so one the
   * fetch already saw is written twice alike) and kept as every stored row of the series from
   * `from` on. The rows as brought up to date; kept only when they can be: not when a commit
   * since recomputed the series' rows in SQL, or retention cleared the level (they are returned
   * as fetched then, a consistent answer of their moment).
   */
  install(level: Level, id: number, from: number, fetched: CachedRows, readAt: number): CachedRows {
    if (this.maxBytes === 0 || this.cleared[level] > readAt) return fetched;
    let rows: CachedRows | null = fetched;
    for (const logged of this.log) {
      if (logged.clock <= readAt) continue;
      if (logged.inSql.has(id)) return fetched;
      const src = logged.rows[level];
      if (!src) continue;
      logged.firstRow[level] ??= firstRows(src);
      const first = logged.firstRow[level].get(id);
      if (first === undefined) continue;
      for (let r = first; rows && r < src.length && src.id[r] === id; r++) rows = put(rows, src, r);
      if (!rows) return fetched;
    }
    const cost = rows.bucket.length * ROW_BYTES;
    if (cost > this.maxBytes / 4) return rows;
    this.drop(level, id);
    this.entries.set(key(level, id), { rows, from });
    this.held[level]++;
    this.bytes += cost;
    this.evict();
    return rows;
  }

  /**
   * After a commit is durable: the rows it computed in JS go into the entries held, the entries
   * of the series it recomputed in SQL are dropped. Synchronous, so no read sees half of it.
   */
  committed(hours: RollupRows | null, days: RollupRows | null, inSql: readonly number[]): void {
    this.clock++;
    if (this.reading.size > 0)
      this.log.push({
        clock: this.clock,
        rows: { hour: hours, day: days },
        inSql: new Set(inSql),
        firstRow: {},
      });
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

  private apply(level: Level, src: RollupRows): void {
    if (this.held[level] === 0) return;
    for (let r = 0; r < src.length; r++) {
      const id = src.id[r] as number;
      const entry = this.entries.get(key(level, id));
      if (!entry) continue;
      const rows = put(entry.rows, src, r);
      if (!rows) {
        // A row between held ones: not what an in-order commit makes; read it again.
        this.drop(level, id);
        continue;
      }
      this.bytes += (rows.bucket.length - entry.rows.bucket.length) * ROW_BYTES;
      entry.rows = rows;
    }
    this.evict();
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

/** Each series' first row in commit rows (appended series by series). */
function firstRows(rows: RollupRows): Map<number, number> {
  const out = new Map<number, number>();
  for (let r = rows.length - 1; r >= 0; r--) out.set(rows.id[r] as number, r);
  return out;
}

const key = (level: Level, id: number): number => id * 2 + (level === 'day' ? 1 : 0);
const levelOf = (k: number): Level => (k % 2 === 1 ? 'day' : 'hour');
