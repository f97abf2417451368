/**
 * Rollup rows computed in JavaScript during a commit, kept as columns (one typed array per rollup
 * column): a commit of 250,000 points makes ~40,000 minute rows, and an object per row was a good
 * part of the writer's garbage on the main thread. The same rows at hour and plant-day width for
 * in-order batches, each series' open hour and day carried over from the commit before
 * (`OpenRow`), so no commit reads the rollups back to recompute them.
 */
import type { DuckDBConnection, DuckDBDataChunk, DuckDBVector } from '@duckdb/node-api';
import { HOUR, MINUTE, type PlantCalendar } from '@kilowatch/contract/calendar';
import { counterIncrement } from '../counter.ts';
import {
  appendChunks,
  CHUNK,
  type InsertRows,
  int64Words,
  itemsOf,
  type Slices,
  setInt64,
} from './chunks.ts';
import { ROLLUP_TYPES } from './schema.ts';

/** The buckets of one rollup level: the key stored in `bucket` and the span it covers. */
export interface Grid {
  /** The key of the bucket holding `t` (a minute's or hour's start ms, a plant day's number). */
  keyOf(t: number): number;
  /** First instant of the bucket `key`. */
  startOf(key: number): number;
  /** First instant after the bucket `key`. */
  endOf(key: number): number;
  /** The distance between consecutive keys. */
  readonly step: number;
}

const fixed = (width: number): Grid => ({
  keyOf: (t) => t - (t % width),
  startOf: (k) => k,
  endOf: (k) => k + width,
  step: width,
});

const MINUTES = fixed(MINUTE);
export const HOURS = fixed(HOUR);

/** Local days of the plant calendar, keyed by day number (the day table's bucket). */
export const daysOf = (cal: PlantCalendar): Grid => ({
  keyOf: (t) => cal.dayOf(t),
  startOf: (d) => cal.dayStart(d),
  endOf: (d) => cal.dayStart(d + 1),
  step: 1,
});

/** Aggregates of a run of samples in one bucket (aggregateRun, series.ts; RAW_AGGREGATES). */
export interface MinuteAggregate {
  cnt: number;
  sum: number;
  min: number;
  max: number;
  first: number;
  firstTs: number;
  last: number;
  lastTs: number;
  inc: number;
  maxGap: number | null;
  minTs: number;
  maxTs: number;
  /** Increment of the sample stamped exactly at the bucket's start, null without one (RAW_AGGREGATES). */
  edge: number | null;
}

/** One stored rollup row of a series (the bucket its latest sample is in), to go on from. */
export interface OpenRow extends MinuteAggregate {
  key: number;
}

/** Rollup rows of several series at one grid, appended series by series, each series' oldest first. */
export class RollupRows {
  length = 0;
  readonly id: Int32Array;
  /** The bucket's key (Grid.keyOf). */
  readonly bucket: Float64Array;
  readonly cnt: Int32Array;
  readonly sum: Float64Array;
  readonly min: Float64Array;
  readonly max: Float64Array;
  readonly first: Float64Array;
  readonly firstTs: Float64Array;
  readonly last: Float64Array;
  readonly lastTs: Float64Array;
  readonly inc: Float64Array;
  /** Longest step into or inside the bucket; valid where `hasGap` is 1 (SQL NULL otherwise). */
  readonly maxGap: Float64Array;
  readonly hasGap: Uint8Array;
  readonly minTs: Float64Array;
  readonly maxTs: Float64Array;
  /** Increment of the sample stamped on the bucket's start; valid where `hasEdge` is 1. */
  readonly edge: Float64Array;
  readonly hasEdge: Uint8Array;

  // The series being added: its id and the sample before the next one.
  private sid = 0;
  private pTs = 0;
  private pV = 0;
  private hasPrev = false;
  /** Row of the bucket being filled for the current series, -1 before its first sample. */
  private row = -1;
  /** First instant after that bucket. */
  private end = Number.NEGATIVE_INFINITY;

  /** `capacity`: at least the rows to come (`rowsBound` summed over the series). */
  constructor(
    capacity: number,
    readonly grid: Grid = MINUTES,
  ) {
    this.id = new Int32Array(capacity);
    this.bucket = new Float64Array(capacity);
    this.cnt = new Int32Array(capacity);
    this.sum = new Float64Array(capacity);
    this.min = new Float64Array(capacity);
    this.max = new Float64Array(capacity);
    this.first = new Float64Array(capacity);
    this.firstTs = new Float64Array(capacity);
    this.last = new Float64Array(capacity);
    this.lastTs = new Float64Array(capacity);
    this.inc = new Float64Array(capacity);
    this.maxGap = new Float64Array(capacity);
    this.hasGap = new Uint8Array(capacity);
    this.minTs = new Float64Array(capacity);
    this.maxTs = new Float64Array(capacity);
    this.edge = new Float64Array(capacity);
    this.hasEdge = new Uint8Array(capacity);
  }

  /**
   * Starts the rows of series `id`, whose sample before the first one added is `prev`. With
   * `open`, the stored row of the bucket `prev` is in, the series' first row goes on from it: the
   * caller passes it only when the first sample to come falls in that bucket.
   */
  begin(id: number, prev: { ts: number; value: number } | null, open?: OpenRow): void {
    this.sid = id;
    this.hasPrev = prev !== null;
    this.pTs = prev ? prev.ts : 0;
    this.pV = prev ? prev.value : 0;
    this.row = -1;
    this.end = Number.NEGATIVE_INFINITY;
    if (!open) return;
    const r = this.length++;
    this.id[r] = id;
    this.bucket[r] = open.key;
    this.cnt[r] = open.cnt;
    this.sum[r] = open.sum;
    this.min[r] = open.min;
    this.max[r] = open.max;
    this.first[r] = open.first;
    this.firstTs[r] = open.firstTs;
    this.last[r] = open.last;
    this.lastTs[r] = open.lastTs;
    this.inc[r] = open.inc;
    this.hasGap[r] = open.maxGap === null ? 0 : 1;
    this.maxGap[r] = open.maxGap ?? 0;
    this.minTs[r] = open.minTs;
    this.maxTs[r] = open.maxTs;
    this.hasEdge[r] = open.edge === null ? 0 : 1;
    this.edge[r] = open.edge ?? 0;
    this.row = r;
    this.end = this.grid.endOf(open.key);
  }

  /**
   * Adds samples `from` … `to - 1` of `ts`/`values` (sorted, after those added before for this
   * series) to its buckets. The same aggregates as the SQL over raw points (RAW_AGGREGATES).
   */
  add(ts: ArrayLike<number>, values: ArrayLike<number>, from: number, to: number): void {
    let row = this.row;
    let end = this.end;
    // The previous sample in locals, never null: a field or a `number | null` written per point
    // boxed a heap number each time (18 % of what MQTT ingest allocated, bench/README.md).
    let pTs = this.pTs;
    let pV = this.pV;
    let hasPrev = this.hasPrev;
    for (let i = from; i < to; i++) {
      const t = ts[i] as number;
      const v = values[i] as number;
      const inc = hasPrev ? counterIncrement(pV, v) : 0;
      if (t >= end) {
        const key = this.grid.keyOf(t);
        const start = this.grid.startOf(key);
        end = this.grid.endOf(key);
        row = this.length++;
        this.id[row] = this.sid;
        this.bucket[row] = key;
        this.cnt[row] = 1;
        this.sum[row] = v;
        this.min[row] = v;
        this.max[row] = v;
        this.first[row] = v;
        this.firstTs[row] = t;
        this.last[row] = v;
        this.lastTs[row] = t;
        this.inc[row] = inc;
        this.minTs[row] = t;
        this.maxTs[row] = t;
        this.hasEdge[row] = t === start ? 1 : 0;
        this.edge[row] = t === start ? inc : 0;
        this.hasGap[row] = hasPrev ? 1 : 0;
        this.maxGap[row] = hasPrev ? t - pTs : 0;
      } else {
        this.cnt[row] = (this.cnt[row] as number) + 1;
        this.sum[row] = (this.sum[row] as number) + v;
        if (v < (this.min[row] as number)) {
          this.min[row] = v;
          this.minTs[row] = t;
        }
        if (v > (this.max[row] as number)) {
          this.max[row] = v;
          this.maxTs[row] = t;
        }
        this.last[row] = v;
        this.lastTs[row] = t;
        this.inc[row] = (this.inc[row] as number) + inc;
        // In a bucket with a sample before, the previous sample always exists.
        const gap = t - pTs;
        if (this.hasGap[row] === 0) {
          this.hasGap[row] = 1;
          this.maxGap[row] = gap;
        } else if (gap > (this.maxGap[row] as number)) this.maxGap[row] = gap;
      }
      pTs = t;
      pV = v;
      hasPrev = true;
    }
    this.pTs = pTs;
    this.pV = pV;
    this.hasPrev = hasPrev;
    this.row = row;
    this.end = end;
  }

  /** Row `r` as an OpenRow (the last row of a series, kept for its next commit). */
  rowAt(r: number): OpenRow {
    return {
      key: this.bucket[r] as number,
      cnt: this.cnt[r] as number,
      sum: this.sum[r] as number,
      min: this.min[r] as number,
      max: this.max[r] as number,
      first: this.first[r] as number,
      firstTs: this.firstTs[r] as number,
      last: this.last[r] as number,
      lastTs: this.lastTs[r] as number,
      inc: this.inc[r] as number,
      maxGap: this.hasGap[r] === 1 ? (this.maxGap[r] as number) : null,
      minTs: this.minTs[r] as number,
      maxTs: this.maxTs[r] as number,
      edge: this.hasEdge[r] === 1 ? (this.edge[r] as number) : null,
    };
  }

  /** The row being filled for the current series (its newest), -1 before any. */
  get current(): number {
    return this.row;
  }

  /**
   * The rows' order bucket-major (ties: in the order added): the keys of a data chunk then
   * repeat across series and DuckDB stores them as runs.
   */
  bucketMajor(): Uint32Array {
    const n = this.length;
    const order = new Uint32Array(n);
    if (n === 0) return order;
    const step = this.grid.step;
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (let r = 0; r < n; r++) {
      const b = this.bucket[r] as number;
      if (b < lo) lo = b;
      if (b > hi) hi = b;
    }
    const span = (hi - lo) / step + 1;
    if (span <= 4 * n + 1024) {
      // A counting sort by bucket (stable): a commit's rows span few buckets for their number.
      const start = new Uint32Array(span + 1);
      const index = (r: number) => ((this.bucket[r] as number) - lo) / step;
      for (let r = 0; r < n; r++) start[index(r) + 1] = (start[index(r) + 1] as number) + 1;
      for (let m = 0; m < span; m++) start[m + 1] = (start[m + 1] as number) + (start[m] as number);
      for (let r = 0; r < n; r++) {
        const m = index(r);
        order[start[m] as number] = r;
        start[m] = (start[m] as number) + 1;
      }
      return order;
    }
    // One number per row, (bucket, row), sorted natively: exact while below 2^53 (a year of
    // minutes × 17 M rows).
    const keys = new Float64Array(n);
    for (let r = 0; r < n; r++) keys[r] = (((this.bucket[r] as number) - lo) / step) * n + r;
    keys.sort();
    for (let k = 0; k < n; k++) order[k] = (keys[k] as number) % n;
    return order;
  }
}

/** Most rows a sorted run of samples from `firstTs` to `lastTs` can make at `grid`. */
export const rowsBound = (samples: number, firstTs: number, lastTs: number, grid: Grid = MINUTES): number =>
  Math.min(samples, (grid.keyOf(lastTs) - grid.keyOf(firstTs)) / grid.step + 1);

/**
 * Inserts the rows into a rollup table (hour or day) in bucket-major order. A commit's rows (one
 * or two per series), when they fit one data chunk, go through an appender: its synchronous
 * append costs less than a statement's round trip.
 */
export function insertRollupRows(
  c: DuckDBConnection,
  table: 'hour' | 'day',
  rows: RollupRows,
  insert: InsertRows,
  slices: Slices,
): Promise<void> {
  const order = rows.bucketMajor();
  let next = 0;
  const source = {
    types: ROLLUP_TYPES,
    rows: rows.length,
    fill(out: DuckDBDataChunk, n: number) {
      new RollupChunk(out).set(rows, order, next, n);
      next += n;
    },
  };
  return rows.length <= CHUNK ? appendChunks(c, table, source, slices) : insert(c, table, source);
}

/** The column vectors of a chunk of rollup rows, set before RollupChunk's fields read them. */
class RollupVectors {
  protected readonly vectors: readonly DuckDBVector[];
  constructor(chunk: DuckDBDataChunk) {
    this.vectors = ROLLUP_TYPES.map((_, k) => chunk.getColumnVector(k));
  }
}

/** One data chunk of rollup rows (ROLLUP_TYPES), its columns filled as typed arrays. */
class RollupChunk extends RollupVectors {
  private readonly id = itemsOf(this.vectors[0] as DuckDBVector, Int32Array);
  private readonly bucket = this.int64(1);
  private readonly cnt = itemsOf(this.vectors[2] as DuckDBVector, Int32Array);
  private readonly sum = this.double(3);
  private readonly min = this.double(4);
  private readonly max = this.double(5);
  private readonly first = this.double(6);
  private readonly firstTs = this.int64(7);
  private readonly last = this.double(8);
  private readonly lastTs = this.int64(9);
  private readonly inc = this.double(10);
  private readonly maxGap = this.int64(11);
  private readonly minTs = this.int64(12);
  private readonly maxTs = this.int64(13);
  private readonly edge = this.double(14);

  /** Writes rows `order[at]` … `order[at + n - 1]` of `m` into the chunk's rows 0 … n - 1. */
  set(m: RollupRows, order: Uint32Array, at: number, n: number): void {
    for (let row = 0; row < n; row++) {
      const r = order[at + row] as number;
      this.id[row] = m.id[r] as number;
      setInt64(this.bucket, row, m.bucket[r] as number);
      this.cnt[row] = m.cnt[r] as number;
      this.sum[row] = m.sum[r] as number;
      this.min[row] = m.min[r] as number;
      this.max[row] = m.max[r] as number;
      this.first[row] = m.first[r] as number;
      setInt64(this.firstTs, row, m.firstTs[r] as number);
      this.last[row] = m.last[r] as number;
      setInt64(this.lastTs, row, m.lastTs[r] as number);
      this.inc[row] = m.inc[r] as number;
      if (m.hasGap[r] === 0) (this.vectors[11] as DuckDBVector).setItem(row, null);
      else setInt64(this.maxGap, row, m.maxGap[r] as number);
      setInt64(this.minTs, row, m.minTs[r] as number);
      setInt64(this.maxTs, row, m.maxTs[r] as number);
      if (m.hasEdge[r] === 0) (this.vectors[14] as DuckDBVector).setItem(row, null);
      else this.edge[row] = m.edge[r] as number;
    }
    for (const v of this.vectors) v.flush();
  }

  private int64(k: number): Uint32Array {
    return int64Words(this.vectors[k] as DuckDBVector);
  }

  private double(k: number): Float64Array {
    return itemsOf(this.vectors[k] as DuckDBVector, Float64Array);
  }
}
