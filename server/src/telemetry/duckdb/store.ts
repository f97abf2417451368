import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { DAY, HOUR, MINUTE, PlantCalendar } from '@kilowatch/contract/calendar';
import {
  ceilTo,
  floorTo,
  type Grid,
  gapTolerance,
  gridOf,
  type Resolution,
  resolutionFor,
} from '../buckets.ts';
import {
  type BucketColumns,
  type BucketQuery,
  type BucketResult,
  type BucketSpec,
  checkRetention,
  DEFAULT_RETENTION,
  type EdgeGrid,
  type LatestValue,
  type Point,
  type PointBatch,
  type PointColumns,
  type RetentionDays,
  type SeriesKey,
  type SummedRegister,
  type TelemetryStore,
  TelemetryWriteError,
  type ThingSeen,
} from '../store.ts';
import { registerChunks } from './chunks.ts';
import { compact } from './compact.ts';
import { HORIZON_KEY, type MinuteHorizon, settleMinutes } from './minutes.ts';
import * as reader from './reader/index.ts';
import { summedRegister } from './register.ts';
import { RollupCache } from './rollup-cache.ts';
import { COUNTER_CONVENTION, checkRollups, rebuildDays, upgradeCounters } from './rollups.ts';
import { columns, createSchema, int, Lane } from './schema.ts';
import { forgetBefore, loadSeries, SeriesTable } from './series.ts';
import { Writer } from './writer.ts';

export interface DuckDBStoreOptions {
  /** Folder of telemetry.duckdb; created when missing. `:memory:` keeps everything in memory. */
  dataDir: string;
  /** IANA zone of the plant: day, month and year buckets start at its local midnight. */
  timeZone: string;
  retention?: RetentionDays;
  /** ms since the epoch; decides which buckets are still running and the retention horizon. */
  now?: () => number;
  /** Group commit: how long the first write of a batch waits for company, ms (default 5). */
  commitDelayMs?: number;
  /** Group commit: a batch is committed at once when it reaches this many points (default 250,000). */
  maxBatchPoints?: number;
  /**
   * DuckDB memory_limit (default '256MB', DuckDB's advised least of 125 MB per thread): its buffer
   * pool keeps every block written or read until this limit makes it evict, so the limit is what
   * the pool grows to. Reads take recent points and hour and day rows from the store's own memory
   * (series.ts, rollup-cache.ts); with 256 MB against 1 GB the query and backfill benchmarks ran
   * alike (bench/README.md "DuckDB's memory limit").
   */
  memoryLimit?: string;
  /** DuckDB threads (default 2). */
  threads?: number;
  /** WAL size that triggers an automatic checkpoint (default '64MB'). */
  checkpointThreshold?: string;
  /**
   * Raw-point bucket reads expected to hold at most this many points are aggregated in JS, larger
   * ones in DuckDB's SQL (default 200,000: ≈ 5 MB fetched, a few ms of the event loop); 0 sends
   * every one to SQL (tests compare the two).
   */
  rawRowsInJs?: number;
  /**
   * Bytes of hour and day rows kept in memory for the series read last (rollup-cache.ts; default
   * 64 MiB); 0 keeps none and reads every hour and day bucket in SQL (tests compare the two).
   */
  rollupCacheBytes?: number;
}

/** How far the minute horizon stays behind the oldest writable instant when retention moves it. */
const HORIZON_MARGIN = 10 * MINUTE;

/**
 * The DuckDB telemetry store: raw points, minute/hour/day rollups maintained in the same
 * transaction as the points (writer.ts, rollups.ts), group commit, latest values and recent
 * points in memory (series.ts), hour and day rows of the series read last in memory
 * (rollup-cache.ts), reads from the coarsest rollup that answers (reader/).
 * See docs/telemetry-store.md.
 */
export class DuckDBTelemetryStore implements TelemetryStore {
  readonly calendar: PlantCalendar;
  readonly retention: RetentionDays;
  /** Writer.stats: commits, points, series' groups, groups whose hours and days went in JS. */
  readonly stats: { commits: number; points: number; groups: number; carried: number };
  /**
   * Set when this open moved rollups written before the interval-ending convention to it: the
   * rows per level that hold a reading on their start (the server logs it). Null otherwise.
   */
  upgraded: { minute: number; hour: number; day: number } | null = null;
  private readonly now: () => number;
  private readonly series = new SeriesTable();
  /** Minute rows are stored below it, answered from raw points above it (minutes.ts). */
  private readonly horizon: MinuteHorizon = { at: Number.NEGATIVE_INFINITY };
  private readonly writer: Writer;
  /** Hour and day rows of the series read last (rollup-cache.ts). */
  private readonly rollups: RollupCache;
  private readonly reads: reader.ReadContext;
  private closed = false;
  /** The maintenance under way: a run that outlasts the caller's period is not started twice. */
  private maintaining: Promise<void> | null = null;

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly writerLane: Lane,
    private readonly readers: Lane[],
    options: DuckDBStoreOptions,
  ) {
    this.calendar = new PlantCalendar(options.timeZone);
    this.retention = options.retention ?? DEFAULT_RETENTION;
    this.now = options.now ?? Date.now;
    this.rollups = new RollupCache(options.rollupCacheBytes ?? 64 * 2 ** 20);
    this.writer = new Writer({
      lane: writerLane,
      rollups: this.rollups,
      series: this.series,
      calendar: this.calendar,
      horizon: this.horizon,
      commitDelayMs: options.commitDelayMs ?? 5,
      maxBatchPoints: options.maxBatchPoints ?? 250_000,
    });
    this.stats = this.writer.stats;
    const [a, b] = readers as [Lane, Lane];
    this.reads = {
      calendar: this.calendar,
      series: this.series,
      reader: () => (a.pending <= b.pending ? a : b),
      now: this.now,
      horizon: this.horizon,
      rawRowsInJs: options.rawRowsInJs ?? 200_000,
      rollups: this.rollups,
    };
  }

  static async open(options: DuckDBStoreOptions): Promise<DuckDBTelemetryStore> {
    const retention = options.retention ?? DEFAULT_RETENTION;
    checkRetention(retention);
    new PlantCalendar(options.timeZone); // throws RangeError for an unknown zone
    let path = ':memory:';
    if (options.dataDir !== ':memory:') {
      mkdirSync(options.dataDir, { recursive: true });
      path = join(options.dataDir, 'telemetry.duckdb');
    }
    const instance = await DuckDBInstance.create(path, {
      threads: String(options.threads ?? 2),
      memory_limit: options.memoryLimit ?? '256MB',
      checkpoint_threshold: options.checkpointThreshold ?? '64MB',
    });
    try {
      const writerConn = await instance.connect();
      registerChunks(writerConn);
      const readers = [new Lane(await instance.connect()), new Lane(await instance.connect())];
      const store = new DuckDBTelemetryStore(instance, new Lane(writerConn), readers, options);
      await store.init();
      return store;
    } catch (error) {
      instance.closeSync();
      throw error;
    }
  }

  private async init(): Promise<void> {
    await this.writerLane.run(async (c) => {
      await createSchema(c);
      await loadSeries(c, this.series);
      const [convention] = await columns(c, `SELECT value FROM meta WHERE key = '${COUNTER_CONVENTION.key}'`);
      if (convention?.[0] !== COUNTER_CONVENTION.value) {
        await c.run('BEGIN TRANSACTION');
        try {
          const rows = await upgradeCounters(c, this.calendar);
          await c.run(
            `INSERT OR REPLACE INTO meta VALUES ('${COUNTER_CONVENTION.key}', '${COUNTER_CONVENTION.value}')`,
          );
          await c.run('COMMIT');
          if (this.series.byId.size > 0) this.upgraded = rows;
        } catch (error) {
          await c.run('ROLLBACK');
          throw error;
        }
      }
      await this.openHorizon(c);
      const [zone] = await columns(c, `SELECT value FROM meta WHERE key = 'time_zone'`);
      const stored = zone?.[0] as string | undefined;
      if (stored !== this.calendar.timeZone) {
        await c.run('BEGIN TRANSACTION');
        try {
          if (stored !== undefined) {
            const minuteCut = this.now() - this.retention.minuteDays * DAY;
            await rebuildDays(c, this.calendar, this.series, minuteCut, this.horizon.at);
          }
          await c.run(
            `INSERT OR REPLACE INTO meta VALUES ('time_zone', '${this.calendar.timeZone.replace(/'/g, "''")}')`,
          );
          await c.run('COMMIT');
        } catch (error) {
          await c.run('ROLLBACK');
          throw error;
        }
      }
    });
  }

  /**
   * Reads the minute horizon, or sets it for a store that has none (new, or written when minute
   * rows were kept everywhere): at the raw points' retention cut, its minute rows above it deleted.
   */
  private async openHorizon(c: DuckDBConnection): Promise<void> {
    const [stored] = await columns(c, `SELECT value FROM meta WHERE key = '${HORIZON_KEY}'`);
    if (stored?.[0] !== undefined) {
      this.horizon.at = Number(stored[0]);
      return;
    }
    const at = floorTo(this.now() - this.retention.rawDays * DAY, HOUR);
    await c.run('BEGIN TRANSACTION');
    try {
      await c.run(`DELETE FROM minute WHERE bucket >= ${int(at)}`);
      await c.run(`INSERT OR REPLACE INTO meta VALUES ('${HORIZON_KEY}', '${int(at)}')`);
      await c.run('COMMIT');
    } catch (error) {
      await c.run('ROLLBACK');
      throw error;
    }
    this.horizon.at = at;
  }

  // ---------------------------------------------------------------- writes

  /**
   * Oldest timestamp write() accepts now: older minutes may have lost raw points to retention, and
   * below the minute horizon minutes are stored rows, which writes do not maintain.
   */
  writableFrom(now = this.now()): number {
    return Math.max(ceilTo(now - this.retention.rawDays * DAY, MINUTE), this.horizon.at);
  }

  write(points: readonly Point[]): Promise<void> {
    if (this.closed) return Promise.reject(new TelemetryWriteError('the telemetry store is closed'));
    if (points.length === 0) return Promise.resolve();
    return this.writer.write(points, this.writableFrom());
  }

  writeBatch(batch: PointBatch): Promise<void> {
    if (this.closed) return Promise.reject(new TelemetryWriteError('the telemetry store is closed'));
    return this.writer.writeBatch(batch, this.writableFrom());
  }

  // ---------------------------------------------------------------- reads

  /** What the store knows of a series: its first sample, typical interval and gap tolerance. */
  describe(
    series: SeriesKey,
  ): { id: number; firstTs: number | null; intervalMs: number | null; gapToleranceMs: number } | undefined {
    const st = this.series.get(series.thingId, series.metric);
    if (!st) return undefined;
    return {
      id: st.id,
      firstTs: st.firstTs,
      intervalMs: st.intervalMs,
      gapToleranceMs: gapTolerance(st.intervalMs),
    };
  }

  latest(series: readonly SeriesKey[]): LatestValue[] {
    const out: LatestValue[] = [];
    for (const s of series) {
      const st = this.series.get(s.thingId, s.metric);
      if (st && st.latestTs !== null) {
        out.push({ thingId: st.thingId, metric: st.metric, ts: st.latestTs, value: st.latestValue });
      }
    }
    return out;
  }

  lastSeen(): Map<number, ThingSeen> {
    const out = new Map<number, ThingSeen>();
    for (const st of this.series.byId.values()) {
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

  points(series: SeriesKey, start: number, end: number, limit: number): Promise<Point[]> {
    return reader.points(this.reads, series, start, end, limit);
  }

  pointColumns(
    series: readonly SeriesKey[],
    start: number,
    end: number,
    limit: number,
    after?: number,
  ): Promise<PointColumns> {
    return reader.pointColumns(this.reads, series, start, end, limit, after);
  }

  summedRegister(
    series: readonly SeriesKey[],
    edges: EdgeGrid,
    from: number,
    to: number,
  ): Promise<SummedRegister> {
    return summedRegister(this.reads, series, edges, from, to);
  }

  /** The bucket layout of a query (for tests and the query layer). */
  grid(bucket: BucketSpec, start: number, end: number): Grid {
    return gridOf(this.calendar, bucket, start, end);
  }

  /** The coarsest stored resolution whose buckets tile this grid exactly. */
  resolutionFor(g: Grid): Resolution {
    return resolutionFor(g);
  }

  buckets(query: BucketQuery): Promise<BucketResult> {
    return reader.bucketsAt(this.reads, query);
  }

  bucketColumns(query: BucketQuery): Promise<BucketColumns> {
    return reader.bucketColumnsAt(this.reads, query);
  }

  /**
   * `buckets()` answered from a given resolution (tests and benchmarks compare them); it must tile
   * the grid: raw, minute or hour for fixed widths aligned to them, day for day/month/year buckets.
   */
  bucketsAt(query: BucketQuery, at?: Resolution): Promise<BucketResult> {
    return reader.bucketsAt(this.reads, query, at);
  }

  /**
   * About `maxPoints` points of one series over [start, end) for a chart: the raw points when
   * there are few enough, else the minimum and maximum of each bucket (with their own times), on
   * the coarsest resolution whose buckets fit. Buckets are the `buckets()` grid, so the rollups
   * answer: 30 days into ≤ 2,000 points reads 720 hour rows.
   */
  downsample(series: SeriesKey, start: number, end: number, maxPoints: number): Promise<Point[]> {
    return reader.downsample(this.reads, series, start, end, maxPoints);
  }

  // ---------------------------------------------------------------- maintenance

  /**
   * Deletes raw points, minute and hour rows older than their retention (cut at a whole hour);
   * day rows are kept. Then rewrites the closed windows of raw points, and of minute rows, not yet
   * rewritten, in blocks of whole series (compact.ts; each table keeps its own span of windows
   * done, so minute rows of a store whose raw points were compacted earlier are compacted too; stops
   * between steps once the store is closing), and checkpoints. Runs between commits on the writer
   * connection.
   */
  applyRetention(now: number): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the telemetry store is closed'));
    this.maintaining ??= this.maintain(now).finally(() => {
      this.maintaining = null;
    });
    return this.maintaining;
  }

  private async maintain(now: number): Promise<void> {
    const cut = (days: number) => floorTo(now - days * DAY, HOUR);
    await this.writerLane.run(async (c) => {
      // A write checked against the horizon a moment before may still be queued behind this run:
      // the horizon stays a margin behind writableFrom(), so its points are above it.
      const to = floorTo(now - this.retention.rawDays * DAY - HORIZON_MARGIN, HOUR);
      if (to > this.horizon.at) {
        await c.run('BEGIN TRANSACTION');
        try {
          await settleMinutes(c, this.horizon.at, to, cut(this.retention.minuteDays));
          await c.run('COMMIT');
        } catch (error) {
          await c.run('ROLLBACK');
          throw error;
        }
        // settleMinutes deleted the raw points below the old horizon.
        for (const st of this.series.byId.values()) forgetBefore(st, this.horizon.at);
        this.horizon.at = to;
      }
      await c.run(`DELETE FROM minute WHERE bucket < ${int(cut(this.retention.minuteDays))}`);
      await c.run(`DELETE FROM hour WHERE bucket < ${int(cut(this.retention.hourDays))}`);
      this.rollups.clear('hour');
    });
    let newest = Number.NEGATIVE_INFINITY;
    for (const st of this.series.byId.values())
      if (st.latestTs !== null && st.latestTs > newest) newest = st.latestTs;
    // close() waits for this run, which stops between compaction steps once closed.
    if (newest > Number.NEGATIVE_INFINITY)
      await compact(this.writerLane, Math.min(newest, now), this.horizon.at, () => this.closed);
    if (this.closed) return;
    await this.writerLane.run((c) => c.run('CHECKPOINT'));
  }

  /** Forces a checkpoint (WAL into the database file). */
  async checkpoint(): Promise<void> {
    await this.writerLane.run((c) => c.run('CHECKPOINT'));
  }

  /**
   * Recomputes every rollup from the level below (minutes from raw points) and counts the rows
   * that differ from the stored ones (relative tolerance 1e-9 on sums: summation order may differ).
   * Minutes before the oldest raw point of a series are skipped (retention removed their points).
   */
  checkRollups(): Promise<{ minute: number; hour: number; day: number }> {
    return checkRollups(this.writerLane, this.calendar, this.horizon.at);
  }

  /** DuckDB's memory by tag (`duckdb_memory()`, tags holding none left out) and the rollup cache's bytes. */
  async memory(): Promise<Record<string, number>> {
    if (this.closed) throw new Error('the telemetry store is closed');
    const [tags, bytes] = await this.reads
      .reader()
      .run((c) =>
        columns(c, 'SELECT tag, memory_usage_bytes FROM duckdb_memory() WHERE memory_usage_bytes > 0'),
      );
    const out: Record<string, number> = { rollup_cache: this.rollups.size() };
    (tags ?? []).forEach((tag, i) => {
      out[`duckdb_${String(tag).toLowerCase()}`] = Number(bytes?.[i]);
    });
    return out;
  }

  /** A trivial read on a reader connection: rejects once the store is closed. */
  async ping(): Promise<void> {
    if (this.closed) throw new Error('the telemetry store is closed');
    await this.reads.reader().run((c) => c.run('SELECT 1'));
  }

  /**
   * `COPY FROM DATABASE` into a new DuckDB file inside one transaction on a reader connection:
   * the copy is the snapshot of that transaction's start (every write committed before it, none
   * after), and the writer and the other reader go on meanwhile.
   */
  async backup(file: string): Promise<void> {
    if (this.closed) throw new Error('the telemetry store is closed');
    const quoted = `'${file.replace(/'/g, "''")}'`;
    await this.reads.reader().run(async (c) => {
      const [name] = await columns(c, 'SELECT current_database()');
      const source = `"${String(name?.[0]).replace(/"/g, '""')}"`;
      await c.run(`ATTACH ${quoted} AS kw_backup`);
      try {
        await c.run('BEGIN TRANSACTION');
        try {
          await c.run(`COPY FROM DATABASE ${source} TO kw_backup`);
          await c.run('COMMIT');
        } catch (error) {
          await c.run('ROLLBACK');
          throw error;
        }
      } finally {
        await c.run('DETACH kw_backup');
      }
    });
  }

  /** Waits for queued writes, then closes DuckDB (which checkpoints). Later writes are refused. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Maintenance stops between its steps once closed; a step still queued on a lane must not
    // find its connection closed under it while DuckDB runs it (a native crash, not an error).
    // Its outcome is its caller's.
    await Promise.allSettled([this.maintaining]);
    await this.writer.flush();
    await this.writerLane.run(async () => {});
    for (const r of this.readers) await r.run(async () => {});
    this.writerLane.conn.closeSync();
    for (const r of this.readers) r.conn.closeSync();
    this.instance.closeSync();
  }
}
