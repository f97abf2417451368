import { DAY, HOUR, MINUTE, PlantCalendar } from '@kilowatch/contract/calendar';
import { ceilTo } from '../buckets.ts';
import { GroupCommit } from '../group-commit.ts';
import { columnsFromSamples, downsampleSamples, emptyColumns, planBuckets } from '../samples.ts';
import {
  type BucketColumns,
  type BucketQuery,
  type BucketResult,
  batchPoints,
  batchProblem,
  bucketsOf,
  checkRetention,
  DEFAULT_RETENTION,
  type LatestValue,
  type Point,
  type PointBatch,
  type PointColumns,
  pointProblem,
  type RetentionDays,
  type SeriesKey,
  type TelemetryStore,
  TelemetryWriteError,
  type ThingSeen,
} from '../store.ts';
import { endpoints, VictoriaClient } from './http.ts';
import { samplesIn, samplesWithPrev } from './reader.ts';
import { type RollupContext, readRollups } from './rollup-io.ts';
import { rollupFits } from './rollups.ts';
import { SeriesBook, type SeriesState } from './series.ts';
import { commitPoints, type RewriteUndo, restoreRewrite } from './writer.ts';

export interface VictoriaStoreOptions {
  /** TELEMETRY_URL: a single node (http://host:8428) or a cluster's vminsert path with its tenant. */
  url: string;
  /** TELEMETRY_SELECT_URL: a cluster's vmselect path with the same tenant; unset for a single node. */
  selectUrl?: string;
  /** IANA zone of the plant: day, month and year buckets start at its local midnight. */
  timeZone: string;
  retention?: RetentionDays;
  /** ms since the epoch; decides which buckets are still running and the retention horizon. */
  now?: () => number;
  /** The metric name every point is stored under (default `kilowatch`); labels `thing` and `metric`. */
  name?: string;
  /** Group commit: how long the first write of a batch waits for company, ms (default 5). */
  commitDelayMs?: number;
  /** Group commit: a batch is sent at once when it reaches this many points (default 250,000). */
  maxBatchPoints?: number;
  /**
   * Bucket queries over at least this many series × hours read the hour rollups (default 48);
   * smaller ones read raw samples, which is faster for them. 0: always the rollups when they fit.
   */
  rollupMinHours?: number;
}

/** Series per export of a paged raw read (pointColumns). */
const POINT_SERIES_PER_EXPORT = 16;
/**
 * The VictoriaMetrics telemetry store: raw points as VictoriaMetrics series (`name{thing,metric}`),
 * buckets computed from the exported samples with the backend-neutral rules of ../samples.ts, so a
 * counter's interval-ending `delta` and the `complete` flag are exact (no `increase()`
 * extrapolation). Latest values, first samples and intervals live in memory, filled at open from
 * VictoriaMetrics. See docs/telemetry-store.md, "The VictoriaMetrics wing".
 */
export class VictoriaTelemetryStore implements TelemetryStore {
  readonly calendar: PlantCalendar;
  readonly retention: RetentionDays;
  readonly stats = { commits: 0, points: 0, rewrites: 0 };
  /** The DuckDB wing's counter upgrade has no counterpart here: nothing is ever upgraded. */
  readonly upgraded = null;
  private readonly now: () => number;
  private readonly client: VictoriaClient;
  private readonly commits: GroupCommit<readonly Point[]>;
  private readonly book: SeriesBook;
  private readonly rollups: RollupContext<SeriesState>;
  private readonly rollupMinHours: number;
  private readonly undo: RewriteUndo = { pending: null };
  private closed = false;

  private constructor(options: VictoriaStoreOptions) {
    this.calendar = new PlantCalendar(options.timeZone);
    this.retention = options.retention ?? DEFAULT_RETENTION;
    this.now = options.now ?? Date.now;
    this.book = new SeriesBook(options.name ?? 'kilowatch');
    this.rollupMinHours = options.rollupMinHours ?? 48;
    this.client = new VictoriaClient(endpoints(options.url, options.selectUrl));
    this.rollups = {
      client: this.client,
      name: `${this.book.name}_hour`,
      samplesWithPrev: (states, from, to) => samplesWithPrev(this.client, this.book, states, from, to),
    };
    this.commits = new GroupCommit({
      delayMs: options.commitDelayMs ?? 5,
      maxSize: options.maxBatchPoints ?? 250_000,
      size: (points) => points.length,
      commit: async (batches, n) => {
        this.stats.rewrites += await commitPoints(this.client, this.book, this.rollups, batches, this.undo);
        this.stats.commits++;
        this.stats.points += n;
      },
      failure: 'telemetry write failed',
    });
  }

  static async open(options: VictoriaStoreOptions): Promise<VictoriaTelemetryStore> {
    checkRetention(options.retention ?? DEFAULT_RETENTION);
    const store = new VictoriaTelemetryStore(options);
    await store.book.load(store.client, store.now());
    return store;
  }

  // ---------------------------------------------------------------- writes

  /** Oldest timestamp write() accepts now (the raw retention, as the DuckDB wing). */
  writableFrom(now = this.now()): number {
    return ceilTo(now - this.retention.rawDays * DAY, MINUTE);
  }

  write(points: readonly Point[]): Promise<void> {
    if (this.closed) return Promise.reject(new TelemetryWriteError('the telemetry store is closed'));
    if (points.length === 0) return Promise.resolve();
    const from = this.writableFrom();
    for (const p of points) {
      const problem = pointProblem(p, from);
      if (problem) {
        return Promise.reject(
          new TelemetryWriteError(`point ${p.thingId}/${p.metric}@${p.ts}: ${problem}; nothing was written`),
        );
      }
    }
    return this.commits.add(points);
  }

  /** Points go to VictoriaMetrics one by one anyway: the batch is checked, then written as points. */
  writeBatch(batch: PointBatch): Promise<void> {
    if (this.closed) return Promise.reject(new TelemetryWriteError('the telemetry store is closed'));
    const bad = batchProblem(batch, this.writableFrom());
    if (bad) return Promise.reject(new TelemetryWriteError(`${bad.at}: ${bad.problem}; nothing was written`));
    return this.write(batchPoints(batch));
  }

  // ---------------------------------------------------------------- reads

  /** What the store knows of a series: its first sample, typical interval (as the DuckDB wing's describe). */
  describe(series: SeriesKey): { firstTs: number | null; intervalMs: number | null } | undefined {
    const st = this.book.get(series.thingId, series.metric);
    return st && st.latestTs !== null ? { firstTs: st.firstTs, intervalMs: st.intervalMs } : undefined;
  }

  latest(series: readonly SeriesKey[]): LatestValue[] {
    const out: LatestValue[] = [];
    for (const s of series) {
      const st = this.book.get(s.thingId, s.metric);
      if (st && st.latestTs !== null)
        out.push({ thingId: st.thingId, metric: st.metric, ts: st.latestTs, value: st.latestValue });
    }
    return out;
  }

  lastSeen(): Map<number, ThingSeen> {
    const out = new Map<number, ThingSeen>();
    for (const st of this.book.all()) {
      if (st.latestTs === null) continue;
      const seen = out.get(st.thingId);
      if (!seen) {
        out.set(st.thingId, { ts: st.latestTs, intervalMs: st.intervalMs });
        continue;
      }
      if (st.latestTs > seen.ts) seen.ts = st.latestTs;
      if (st.intervalMs !== null && (seen.intervalMs === null || st.intervalMs < seen.intervalMs))
        seen.intervalMs = st.intervalMs;
    }
    return out;
  }

  async points(series: SeriesKey, start: number, end: number, limit: number): Promise<Point[]> {
    const [st] = this.book.known([series]);
    if (!st || !(end > start) || limit <= 0) return [];
    const s = (await samplesIn(this.client, this.book, [st], Math.ceil(start), Math.ceil(end) - 1)).get(st);
    const n = Math.min(s?.ts.length ?? 0, Math.floor(limit));
    const out: Point[] = new Array(n);
    for (let i = 0; i < n; i++)
      out[i] = {
        thingId: st.thingId,
        metric: st.metric,
        ts: s?.ts[i] as number,
        value: s?.values[i] as number,
      };
    return out;
  }

  async pointColumns(
    series: readonly SeriesKey[],
    start: number,
    end: number,
    limit: number,
    after?: number,
  ): Promise<PointColumns> {
    const empty = { index: new Float64Array(0), ts: new Float64Array(0), values: new Float64Array(0) };
    if (this.book.known(series).length === 0 || !(end > start) || limit <= 0) return empty;
    const index: number[] = [];
    const ts: number[] = [];
    const values: number[] = [];
    const cap = Math.floor(limit);
    // A few series per export, in the query's order, until the page is full: a paged read (the
    // bill's demand over every meter's month) does not export the whole range for every page.
    for (let k0 = 0; k0 < series.length && ts.length < cap; k0 += POINT_SERIES_PER_EXPORT) {
      const keys = series.slice(k0, k0 + POINT_SERIES_PER_EXPORT);
      const data = await samplesIn(
        this.client,
        this.book,
        this.book.known(keys),
        Math.ceil(start),
        Math.ceil(end) - 1,
      );
      keys.forEach((key, j) => {
        const k = k0 + j;
        const st = this.book.get(key.thingId, key.metric);
        const s = st && data.get(st);
        if (!s) return;
        for (let i = 0; i < s.ts.length && ts.length < cap; i++) {
          const t = s.ts[i] as number;
          if (k === 0 && after !== undefined && t <= after) continue;
          index.push(k);
          ts.push(t);
          values.push(s.values[i] as number);
        }
      });
    }
    return { index: Float64Array.from(index), ts: Float64Array.from(ts), values: Float64Array.from(values) };
  }

  async bucketColumns(query: BucketQuery): Promise<BucketColumns> {
    const plan = planBuckets(this.calendar, query);
    if (!plan) return emptyColumns(query.series, 'raw');
    const states = this.book.known(query.series);
    if (rollupFits(query, plan) && (states.length * (plan.to - plan.from)) / HOUR >= this.rollupMinHours)
      return readRollups(
        this.rollups,
        query,
        plan,
        states,
        (k) => this.book.known([query.series[k] as SeriesKey])[0],
        this.now(),
      );
    const samples = await samplesWithPrev(this.client, this.book, states, plan.from, plan.to);
    const now = this.now();
    return columnsFromSamples(
      query,
      plan,
      (k) => {
        const key = query.series[k] as SeriesKey;
        const st = this.book.get(key.thingId, key.metric);
        const s = st && samples.get(st);
        return st && s ? { samples: s, facts: st } : undefined;
      },
      now,
    );
  }

  async buckets(query: BucketQuery): Promise<BucketResult> {
    return bucketsOf(await this.bucketColumns(query));
  }

  async downsample(series: SeriesKey, start: number, end: number, maxPoints: number): Promise<Point[]> {
    const [st] = this.book.known([series]);
    if (!st || !(end > start) || maxPoints < 1) return [];
    const s = (await samplesIn(this.client, this.book, [st], Math.ceil(start), Math.ceil(end) - 1)).get(st);
    return downsampleSamples(this.calendar, st, s?.ts ?? [], s?.values ?? [], start, end, maxPoints);
  }

  // ---------------------------------------------------------------- maintenance

  /**
   * Nothing to do: VictoriaMetrics keeps every sample for its own `-retentionPeriod` (one setting
   * for the whole instance) and drops older ones itself, hour rollups with the raw samples.
   */
  async applyRetention(_now: number): Promise<void> {}

  /** VictoriaMetrics' /health on the insert side and, for a cluster, on vmselect. */
  async ping(): Promise<void> {
    await this.client.ping();
  }

  /** Sends what is queued; later writes are refused. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.commits.flush();
    await restoreRewrite(this.client, this.undo);
  }
}
