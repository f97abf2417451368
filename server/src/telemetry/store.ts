/**
 * The telemetry store's interface: what ingest, queries, the alarm engine and reports need of
 * stored points, shaped so a VictoriaMetrics backend (ROADMAP step 7) can stand in for DuckDB
 * without touching its callers. Times are ms since the epoch; ranges are [start, end).
 */

/** One stored value: a numeric sample of one metric (ability identifier) of one thing. */
export interface Point {
  thingId: number;
  metric: string;
  ts: number;
  value: number;
}

/**
 * Numbers of one thing as columns (what ingest parses off the main thread): value `i` is
 * `values[i]` of metric `metrics[metric[i]]` at `ts[i]` ms. No object per value.
 */
export interface PointBatch {
  thingId: number;
  metrics: readonly string[];
  metric: Uint32Array;
  ts: Float64Array;
  values: Float64Array;
}

export interface SeriesKey {
  thingId: number;
  metric: string;
}

/** Aggregations a bucket can answer; `delta` is a counter's consumption (positive increments). */
export type BucketAggregator = 'avg' | 'sum' | 'max' | 'min' | 'count' | 'first' | 'last' | 'delta';

/**
 * Fixed-width buckets (`widthMs`), or calendar buckets (`month`, `year`) in the plant's time
 * zone. Day and wider buckets align to local midnight in that zone.
 */
export type BucketSpec = { widthMs: number } | { calendar: 'month' | 'year' };

export interface BucketQuery {
  series: SeriesKey[];
  start: number;
  end: number;
  bucket: BucketSpec;
  aggregator: BucketAggregator;
  /**
   * Only samples in these hours (each `[h, h + 1 h)`, `h` a multiple of an hour in ms) are read;
   * the other buckets answer as empty. A quarter-hour tariff reads its few cut hours this way in one
   * read (docs/tariffs.md). Fixed-width buckets of at most an hour only.
   */
  hours?: readonly number[];
  /**
   * False when the caller reads no `complete` flag (a tariff's slots): a wing may then answer them
   * all 0 and spare the aggregates they need (the DuckDB wing's last sample and largest gap per
   * bucket, a third of a grouped minute read). Values and counts are the same either way.
   */
  complete?: boolean;
}

export interface Bucket {
  thingId: number;
  metric: string;
  /** Bucket start, ms. */
  start: number;
  value: number | null;
  /** Raw samples that fell in the bucket. */
  count: number;
  /** False when part of the bucket had no data (a gap) or it lies partly in the future. */
  complete: boolean;
}

export interface BucketResult {
  buckets: Bucket[];
  /** The stored resolution that answered: 'raw' | 'minute' | 'hour' | 'day'. */
  resolution: string;
}

/**
 * `buckets()` as columns, for readers of many buckets (a month of hours of 200 meters): no object
 * per bucket. Series `k`'s bucket `i` is at `k * n + i` of each array, `n = starts.length - 1`.
 */
export interface BucketColumns {
  /** The series asked for, in order. */
  series: readonly SeriesKey[];
  /** Bucket starts, ms; `starts[n]` is where the last bucket ends. */
  starts: Float64Array;
  /** The bucket's value; NaN where `Bucket.value` is null. */
  values: Float64Array;
  counts: Float64Array;
  /** 1 where the bucket is complete. */
  complete: Uint8Array;
  resolution: string;
}

/** The buckets of a column answer, series by series in bucket order. */
export function bucketsOf(c: BucketColumns): BucketResult {
  const n = Math.max(0, c.starts.length - 1);
  const buckets: Bucket[] = new Array(c.series.length * n);
  c.series.forEach((s, k) => {
    for (let i = 0; i < n; i++) {
      const at = k * n + i;
      const value = c.values[at] as number;
      buckets[at] = {
        thingId: s.thingId,
        metric: s.metric,
        start: c.starts[i] as number,
        value: Number.isNaN(value) ? null : value,
        count: c.counts[at] as number,
        complete: c.complete[at] === 1,
      };
    }
  });
  return { buckets, resolution: c.resolution };
}

/**
 * Raw points of several series as columns (`pointColumns()`), in the query's series order and
 * oldest first within a series: point `i` is `ts[i]`, `values[i]` of `series[index[i]]`.
 */
export interface PointColumns {
  index: Float64Array;
  ts: Float64Array;
  values: Float64Array;
}

/** Instants `start + i × step`, i = 0 … count − 1 (ms). */
export interface EdgeGrid {
  start: number;
  step: number;
  count: number;
}

/** What `summedRegister()` answers: the register of the series it could read, and which it could not. */
export interface SummedRegister {
  /** Σ of the answered series' registers at each edge, kWh (or the counter's unit). */
  values: Float64Array;
  /** Indexes into the series asked for whose register the caller reads from raw points. */
  unanswered: number[];
}

export interface LatestValue extends SeriesKey {
  ts: number;
  value: number;
}

/** When a thing last sent a number, and how often its fastest series usually does (null: unknown yet). */
export interface ThingSeen {
  ts: number;
  intervalMs: number | null;
}

export interface TelemetryStore {
  /** Resolves once the points are durable (acknowledge only after this). Batches are group-committed. */
  write(points: readonly Point[]): Promise<void>;
  /** `write()` of a column batch: the same checks, the same group commit and durability. */
  writeBatch(batch: PointBatch): Promise<void>;
  /** Bucketed aggregates over a range for these series, from the coarsest resolution that answers exactly. */
  buckets(query: BucketQuery): Promise<BucketResult>;
  /** The same answer as columns (see BucketColumns). */
  bucketColumns(query: BucketQuery): Promise<BucketColumns>;
  /** Raw points of one series, oldest first, at most `limit`; for charts that downsample themselves. */
  points(series: SeriesKey, start: number, end: number, limit: number): Promise<Point[]>;
  /**
   * Raw points of several series over [start, end) in one read, at most `limit` in all (see
   * PointColumns); the first series' points start after `after` when given, so a read that came
   * back full resumes from its last point. For readers of every meter's month (the bill's demand).
   */
  pointColumns(
    series: readonly SeriesKey[],
    start: number,
    end: number,
    limit: number,
    after?: number,
  ): Promise<PointColumns>;
  /**
   * The summed register of several counters at each edge (docs/tariffs.md "Maximum demand"): each
   * counter's energy E(t) counted from its first reading in [from, to) (increments by the counter
   * rule), interpolated linearly between the readings around an edge, held flat before the first
   * reading and after the last; summed over the series exactly (order-free, to 1e-6 of the unit).
   * A store answers the series its stored aggregates determine and names the others, which the
   * caller reads from `pointColumns()`. Optional: without it, callers read every series that way.
   */
  summedRegister?(
    series: readonly SeriesKey[],
    edges: EdgeGrid,
    from: number,
    to: number,
  ): Promise<SummedRegister>;
  /**
   * About `maxPoints` points of one series for a chart (raw points when few enough, else each
   * bucket's minimum and maximum). Optional: without it, callers use `downsample()` from
   * ./downsample.ts, which falls back to `points()` and largest-triangle downsampling.
   */
  downsample?(series: SeriesKey, start: number, end: number, maxPoints: number): Promise<Point[]>;
  /** Latest value of each series (served from memory, kept on write). */
  latest(series: readonly SeriesKey[]): LatestValue[];
  /** Every thing with a stored value: its newest sample time and usual interval (served from memory). */
  lastSeen(): Map<number, ThingSeen>;
  /** Applies retention per resolution (called periodically). */
  applyRetention(now: number): Promise<void>;
  close(): Promise<void>;
}

/** A write the backend refused or a point it cannot take; nothing of that write() was stored. */
export class TelemetryWriteError extends Error {
  override name = 'TelemetryWriteError';
}

/**
 * Why a point cannot be stored (undefined: it can); `from` is the oldest timestamp the store takes
 * (the raw retention). Every wing checks the whole write() call with it before storing any of it.
 */
export function pointProblem(p: Point, from: number): string | undefined {
  return !Number.isSafeInteger(p.thingId)
    ? 'thingId must be an integer'
    : typeof p.metric !== 'string' || p.metric.length === 0
      ? 'metric must be a non-empty string'
      : typeof p.value !== 'number' || !Number.isFinite(p.value)
        ? 'value must be a finite number (booleans as 0/1; strings are not stored)'
        : !Number.isSafeInteger(p.ts) || p.ts < 0
          ? 'ts must be an integer number of ms since the epoch'
          : p.ts < from
            ? `ts is older than the raw retention allows (${new Date(from).toISOString()})`
            : undefined;
}

/** `pointProblem()` of a column batch: the first point that cannot be stored and why (undefined: none). */
export function batchProblem(b: PointBatch, from: number): { at: string; problem: string } | undefined {
  const n = b.ts.length;
  if (b.metric.length !== n || b.values.length !== n)
    return { at: `batch of thing ${b.thingId}`, problem: 'columns of different lengths' };
  const probe: Point = { thingId: b.thingId, metric: '', ts: 0, value: 0 };
  for (let i = 0; i < n; i++) {
    const ts = b.ts[i] as number;
    const value = b.values[i] as number;
    const metric = b.metrics[b.metric[i] as number] as string;
    // The common case checked inline; the message comes from pointProblem, so both say the same.
    if (Number.isFinite(value) && Number.isSafeInteger(ts) && ts >= from && metric) continue;
    probe.metric = metric ?? '';
    probe.ts = ts;
    probe.value = value;
    const problem = pointProblem(probe, from) ?? 'metric index out of range';
    return { at: `point ${b.thingId}/${probe.metric}@${ts}`, problem };
  }
  if (!Number.isSafeInteger(b.thingId))
    return { at: `batch of thing ${b.thingId}`, problem: 'thingId must be an integer' };
  return undefined;
}

/** The points of a column batch as objects (for wings that send points one by one anyway). */
export function batchPoints(b: PointBatch): Point[] {
  const out: Point[] = new Array(b.ts.length);
  for (let i = 0; i < b.ts.length; i++)
    out[i] = {
      thingId: b.thingId,
      metric: b.metrics[b.metric[i] as number] as string,
      ts: b.ts[i] as number,
      value: b.values[i] as number,
    };
  return out;
}

/** Days each resolution is kept; day rollups are kept forever. */
export interface RetentionDays {
  rawDays: number;
  minuteDays: number;
  hourDays: number;
}

export const DEFAULT_RETENTION: RetentionDays = { rawDays: 90, minuteDays: 400, hourDays: 1830 };

export function checkRetention(r: RetentionDays): void {
  for (const [name, v] of Object.entries(r)) {
    if (!Number.isSafeInteger(v) || v < 1)
      throw new RangeError(`retention ${name} must be a positive integer of days`);
  }
  if (!(r.rawDays < r.minuteDays && r.minuteDays < r.hourDays)) {
    throw new RangeError(
      'retention must keep each resolution longer than the finer one (raw < minute < hour days): late points recompute rollups from the finer level',
    );
  }
}
