/**
 * Minute rows computed in JavaScript during a commit, kept as columns (one typed array per rollup
 * column): a commit of 250,000 points makes ~40,000 minute rows, and an object per row was a good
 * part of the writer's garbage on the main thread.
 */
import { MINUTE } from '@kilowatch/contract/calendar';
import { counterIncrement } from '../counter.ts';

/** Minute rows of several series, appended series by series, each series' minutes oldest first. */
export class MinuteRows {
  length = 0;
  readonly id: Int32Array;
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
  /** Longest step into or inside the minute; valid where `hasGap` is 1 (SQL NULL otherwise). */
  readonly maxGap: Float64Array;
  readonly hasGap: Uint8Array;
  readonly minTs: Float64Array;
  readonly maxTs: Float64Array;
  /** Increment of the sample stamped on the minute's start; valid where `hasEdge` is 1. */
  readonly edge: Float64Array;
  readonly hasEdge: Uint8Array;

  // The series being added: its id and the sample before the next one.
  private sid = 0;
  private pTs = 0;
  private pV = 0;
  private hasPrev = false;
  /** Row of the minute being filled for the current series, -1 before its first sample. */
  private row = -1;

  /** `capacity`: at least the rows to come (`minutesBound` summed over the series). */
  constructor(capacity: number) {
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

  /** Starts the rows of series `id`, whose sample before the first one added is `prev`. */
  begin(id: number, prev: { ts: number; value: number } | null): void {
    this.sid = id;
    this.hasPrev = prev !== null;
    this.pTs = prev ? prev.ts : 0;
    this.pV = prev ? prev.value : 0;
    this.row = -1;
  }

  /**
   * Adds samples `from` … `to - 1` of `ts`/`values` (sorted, after those added before for this
   * series) to its minutes. The same aggregates as the SQL over raw points (RAW_AGGREGATES).
   */
  add(ts: ArrayLike<number>, values: ArrayLike<number>, from: number, to: number): void {
    let row = this.row;
    let curBucket = row < 0 ? Number.NaN : (this.bucket[row] as number);
    for (let i = from; i < to; i++) {
      const t = ts[i] as number;
      const v = values[i] as number;
      const b = t - (t % MINUTE);
      const inc = counterIncrement(this.hasPrev ? this.pV : null, v);
      if (b !== curBucket) {
        row = this.length++;
        curBucket = b;
        this.id[row] = this.sid;
        this.bucket[row] = b;
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
        this.hasEdge[row] = t === b ? 1 : 0;
        this.edge[row] = t === b ? inc : 0;
        this.hasGap[row] = this.hasPrev ? 1 : 0;
        this.maxGap[row] = this.hasPrev ? t - this.pTs : 0;
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
        // In a minute with a sample before, the previous sample always exists.
        const gap = t - this.pTs;
        if (this.hasGap[row] === 0) {
          this.hasGap[row] = 1;
          this.maxGap[row] = gap;
        } else if (gap > (this.maxGap[row] as number)) this.maxGap[row] = gap;
      }
      this.pTs = t;
      this.pV = v;
      this.hasPrev = true;
    }
    this.row = row;
  }

  /**
   * The rows' order minute-major (ties: in the order added): the times of a
   * data chunk then repeat across series and DuckDB stores them as runs.
   */
  minuteMajor(): Uint32Array {
    const n = this.length;
    const order = new Uint32Array(n);
    if (n === 0) return order;
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (let r = 0; r < n; r++) {
      const b = this.bucket[r] as number;
      if (b < lo) lo = b;
      if (b > hi) hi = b;
    }
    const span = (hi - lo) / MINUTE + 1;
    if (span <= 4 * n + 1024) {
      // A counting sort by minute (stable): a commit's rows span few minutes for their number.
      const start = new Uint32Array(span + 1);
      const minute = (r: number) => ((this.bucket[r] as number) - lo) / MINUTE;
      for (let r = 0; r < n; r++) start[minute(r) + 1] = (start[minute(r) + 1] as number) + 1;
      for (let m = 0; m < span; m++) start[m + 1] = (start[m + 1] as number) + (start[m] as number);
      for (let r = 0; r < n; r++) {
        const m = minute(r);
        order[start[m] as number] = r;
        start[m] = (start[m] as number) + 1;
      }
      return order;
    }
    // One number per row, (minute, row), sorted natively: exact while below 2^53 (a year of
    // minutes × 17 M rows).
    const keys = new Float64Array(n);
    for (let r = 0; r < n; r++) keys[r] = (((this.bucket[r] as number) - lo) / MINUTE) * n + r;
    keys.sort();
    for (let k = 0; k < n; k++) order[k] = (keys[k] as number) % n;
    return order;
  }
}

/** Most minute rows a sorted run of samples from `firstTs` to `lastTs` can make. */
export const minutesBound = (samples: number, firstTs: number, lastTs: number): number =>
  Math.min(samples, Math.floor(lastTs / MINUTE) - Math.floor(firstTs / MINUTE) + 1);
