import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  BIGINT,
  DOUBLE,
  type DuckDBConnection,
  DuckDBDataChunk,
  DuckDBInstance,
  INTEGER,
} from '@duckdb/node-api';
import { DAY, HOUR, MINUTE, PlantCalendar, SECOND } from './calendar.ts';
import { counterIncrement, incrementSql } from './counter.ts';
import type {
  Bucket,
  BucketAggregator,
  BucketQuery,
  BucketResult,
  BucketSpec,
  LatestValue,
  Point,
  SeriesKey,
  TelemetryStore,
  ThingSeen,
} from './store.ts';

/** Days each resolution is kept; day rollups are kept forever. */
export interface RetentionDays {
  rawDays: number;
  minuteDays: number;
  hourDays: number;
}

export const DEFAULT_RETENTION: RetentionDays = { rawDays: 90, minuteDays: 400, hourDays: 1830 };

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
  /** DuckDB memory_limit (default '1GB'). */
  memoryLimit?: string;
  /** DuckDB threads (default 2). */
  threads?: number;
  /** WAL size that triggers an automatic checkpoint (default '64MB'). */
  checkpointThreshold?: string;
}

/** A write DuckDB refused or a point the store cannot take; nothing of that write() was stored. */
export class TelemetryWriteError extends Error {
  override name = 'TelemetryWriteError';
}

/** Resolution tables, finest first; `raw` is the points themselves. */
const ROLLUPS = ['minute', 'hour', 'day'] as const;
type Rollup = (typeof ROLLUPS)[number];
export type Resolution = 'raw' | Rollup;

/** Nice widths for downsampling, ms. */
const NICE_WIDTHS = [
  SECOND,
  2 * SECOND,
  5 * SECOND,
  10 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
];

/** At most this many buckets per query (series × buckets), so a typo cannot exhaust memory. */
export const MAX_BUCKETS = 2_000_000;
/** A gap is a step between samples longer than max(3 × the series' interval, this). */
export const MIN_GAP_MS = 60_000;
/** Lookback for the previous sample in minute rollups before falling back to hour rollups. */
const PREV_LOOKBACK = 6 * HOUR;

interface SeriesState {
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
  /**
   * Last sample strictly before the minute of `latestTs` (null: none; undefined: unknown), so an
   * in-order batch recomputes its first minute without a lookup.
   */
  tailPrev: { ts: number; value: number } | null | undefined;
  /** Recent points in memory, oldest first: every stored point at or after `recentFrom`. */
  recentTs: number[];
  recentValues: number[];
  recentFrom: number;
  /** The group of the batch being committed (scratch). */
  group: Group | undefined;
}

/** Recent points kept in memory per series (realtime reads, minute rollups of in-order batches). */
const RECENT_WINDOW = 15 * MINUTE;
const RECENT_CAP = 1024;

interface Group {
  st: SeriesState;
  ts: number[];
  values: number[];
}

interface Pending {
  points: readonly Point[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Bucket layout of a query: fixed widths on a grid anchored at local midnight, or local days/months/years. */
type Grid =
  | { kind: 'fixed'; base: number; width: number; n: number }
  | { kind: 'days'; d0: number; k: number; n: number }
  | { kind: 'month' | 'year'; m0: number; n: number };

interface Aggregated {
  cnt: number;
  value: number | null;
  firstTs: number;
  lastTs: number;
  maxGap: number;
  firstValue: number;
}

/** Series by thing and metric (two levels: no key string built per point). */
class SeriesIndex {
  private readonly things = new Map<number, Map<string, SeriesState>>();
  get(thingId: number, metric: string): SeriesState | undefined {
    return this.things.get(thingId)?.get(metric);
  }
  set(st: SeriesState): void {
    let m = this.things.get(st.thingId);
    if (!m) {
      m = new Map();
      this.things.set(st.thingId, m);
    }
    m.set(st.metric, st);
  }
  delete(st: SeriesState): void {
    this.things.get(st.thingId)?.delete(st.metric);
  }
}
const floorTo = (ts: number, unit: number): number => Math.floor(ts / unit) * unit;
const ceilTo = (ts: number, unit: number): number => Math.ceil(ts / unit) * unit;
const int = (n: number): string => {
  if (!Number.isSafeInteger(n)) throw new RangeError(`not an integer: ${n}`);
  return String(n);
};

/** A connection whose statements run one at a time, in order. */
class Lane {
  pending = 0;
  private tail: Promise<unknown> = Promise.resolve();
  constructor(readonly conn: DuckDBConnection) {}
  run<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    this.pending++;
    const next = this.tail.then(() => fn(this.conn));
    this.tail = next.then(
      () => {
        this.pending--;
      },
      () => {
        this.pending--;
      },
    );
    return next;
  }
}

async function columns(conn: DuckDBConnection, sql: string): Promise<unknown[][]> {
  const reader = await conn.runAndReadAll(sql);
  return reader.getColumns() as unknown[][];
}

async function scalar(conn: DuckDBConnection, sql: string): Promise<number> {
  const [col] = await columns(conn, sql);
  return Number(col?.[0] ?? 0);
}

const ROLLUP_COLUMNS =
  'series_id INTEGER, bucket BIGINT, cnt INTEGER, vsum DOUBLE, vmin DOUBLE, vmax DOUBLE, vfirst DOUBLE, first_ts BIGINT, vlast DOUBLE, last_ts BIGINT, inc DOUBLE, max_gap BIGINT, min_ts BIGINT, max_ts BIGINT';

/** Aggregates of raw samples `s` (columns ts, value, gap, pv) per group. */
const RAW_AGGREGATES = `count(*)::INTEGER, sum(value), min(value), max(value), arg_min(value, ts), min(ts), arg_max(value, ts), max(ts), sum(${incrementSql('pv', 'value')}), max(gap), arg_min(ts, value), arg_max(ts, value)`;
/** Aggregates of rollup rows per group: exact combinations of the finer rows. */
const ROLLUP_AGGREGATES =
  'sum(cnt)::INTEGER, sum(vsum), min(vmin), max(vmax), arg_min(vfirst, first_ts), min(first_ts), arg_max(vlast, last_ts), max(last_ts), sum(inc), max(max_gap), arg_min(min_ts, vmin), arg_max(max_ts, vmax)';

/**
 * The DuckDB telemetry store: raw points, minute/hour/day rollups maintained in the same
 * transaction as the points, group commit, latest values in memory. See docs/telemetry-store.md.
 */
export class DuckDBTelemetryStore implements TelemetryStore {
  readonly calendar: PlantCalendar;
  readonly retention: RetentionDays;
  private readonly now: () => number;
  private readonly commitDelayMs: number;
  private readonly maxBatchPoints: number;
  private readonly byKey = new SeriesIndex();
  private readonly byId = new Map<number, SeriesState>();
  private nextId = 1;
  private queue: Pending[] = [];
  private queuedPoints = 0;
  private timer: NodeJS.Timeout | undefined;
  private committing: Promise<void> | undefined;
  private closed = false;
  /** Commits and points committed since open (group commit shows as points per commit). */
  readonly stats = { commits: 0, points: 0 };

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly writer: Lane,
    private readonly readers: Lane[],
    options: DuckDBStoreOptions,
  ) {
    this.calendar = new PlantCalendar(options.timeZone);
    this.retention = options.retention ?? DEFAULT_RETENTION;
    this.now = options.now ?? Date.now;
    this.commitDelayMs = options.commitDelayMs ?? 5;
    this.maxBatchPoints = options.maxBatchPoints ?? 250_000;
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
      memory_limit: options.memoryLimit ?? '1GB',
      checkpoint_threshold: options.checkpointThreshold ?? '64MB',
    });
    try {
      const writerConn = await instance.connect();
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
    await this.writer.run(async (c) => {
      await c.run(`CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR)`);
      await c.run(`CREATE TABLE IF NOT EXISTS series (id INTEGER PRIMARY KEY, thing_id INTEGER NOT NULL,
        metric VARCHAR NOT NULL, first_ts BIGINT, interval_ms BIGINT)`);
      await c.run(`CREATE TABLE IF NOT EXISTS raw (series_id INTEGER, ts BIGINT, value DOUBLE)`);
      for (const t of ROLLUPS) await c.run(`CREATE TABLE IF NOT EXISTS ${t} (${ROLLUP_COLUMNS})`);
      // No indexes: an ART index on series_id made hour reads slower here (measured), and costs writes.
      await c.run(`CREATE TEMP TABLE aff (series_id INTEGER, lo BIGINT, hi BIGINT, hlo BIGINT, hhi BIGINT,
        dlo INTEGER, dhi INTEGER, prev_ts BIGINT, prev_value DOUBLE, js BOOLEAN)`);
      await c.run(`CREATE TEMP TABLE dup (series_id INTEGER, ts BIGINT)`);
      await c.run(`CREATE TEMP TABLE days (day INTEGER, lo BIGINT, hi BIGINT)`);

      const [ids, things, metrics, firsts, intervals] = await columns(
        c,
        'SELECT id, thing_id, metric, first_ts::DOUBLE, interval_ms::DOUBLE FROM series',
      );
      for (let i = 0; i < (ids?.length ?? 0); i++) {
        const st: SeriesState = {
          id: ids?.[i] as number,
          thingId: things?.[i] as number,
          metric: metrics?.[i] as string,
          firstTs: firsts?.[i] as number | null,
          intervalMs: intervals?.[i] as number | null,
          persistedInterval: intervals?.[i] as number | null,
          persistedFirstTs: firsts?.[i] as number | null,
          latestTs: null,
          latestValue: 0,
          tailPrev: undefined,
          recentTs: [],
          recentValues: [],
          recentFrom: 0,
          group: undefined,
        };
        this.byKey.set(st);
        this.byId.set(st.id, st);
        this.nextId = Math.max(this.nextId, st.id + 1);
      }
      // Latest values: the day rollups hold every series' last sample and are never pruned.
      const [sids, lastTs, lastValues] = await columns(
        c,
        'SELECT series_id, max(last_ts)::DOUBLE, arg_max(vlast, last_ts) FROM day GROUP BY series_id',
      );
      for (let i = 0; i < (sids?.length ?? 0); i++) {
        const st = this.byId.get(sids?.[i] as number);
        if (!st) continue;
        st.latestTs = lastTs?.[i] as number;
        st.latestValue = lastValues?.[i] as number;
        st.recentFrom = st.latestTs + 1;
      }
      await this.loadRecent(c);

      const [zone] = await columns(c, `SELECT value FROM meta WHERE key = 'time_zone'`);
      const stored = zone?.[0] as string | undefined;
      if (stored !== this.calendar.timeZone) {
        await c.run('BEGIN TRANSACTION');
        try {
          if (stored !== undefined) await this.rebuildDays(c);
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
   * Fills each series' recent window (its last RECENT_WINDOW, at most RECENT_CAP points) from the
   * raw table, as writes since the start would have: "last minutes" reads and the minute rollups
   * of in-order batches then work from memory after a restart too. One query over the raw table's
   * newest part: series whose last point is more than RECENT_WINDOW older than the newest of all
   * start with an empty window (their reads go to the table, as before).
   */
  private async loadRecent(c: DuckDBConnection): Promise<void> {
    let newest = Number.NEGATIVE_INFINITY;
    for (const st of this.byId.values()) {
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
      const st = this.byId.get(id);
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
      const before = lowerBound(ts, floorTo(lt, MINUTE));
      if (before > 0) st.tailPrev = { ts: ts[before - 1] as number, value: values[before - 1] as number };
    }
  }

  // ---------------------------------------------------------------- writes

  /** Oldest timestamp write() accepts now: older minutes may have lost raw points to retention. */
  writableFrom(now = this.now()): number {
    return ceilTo(now - this.retention.rawDays * DAY, MINUTE);
  }

  write(points: readonly Point[]): Promise<void> {
    if (this.closed) return Promise.reject(new TelemetryWriteError('the telemetry store is closed'));
    if (points.length === 0) return Promise.resolve();
    const from = this.writableFrom();
    for (const p of points) {
      const problem = !Number.isSafeInteger(p.thingId)
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
      if (problem) {
        return Promise.reject(
          new TelemetryWriteError(`point ${p.thingId}/${p.metric}@${p.ts}: ${problem}; nothing was written`),
        );
      }
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ points, resolve, reject });
      this.queuedPoints += points.length;
      if (this.committing) return;
      if (this.queuedPoints >= this.maxBatchPoints) this.kick();
      else this.timer ??= setTimeout(() => this.kick(), this.commitDelayMs);
    });
  }

  private kick(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.committing || this.queue.length === 0) return;
    this.committing = this.drain().finally(() => {
      this.committing = undefined;
      if (this.queue.length > 0) this.kick();
    });
  }

  /** Commits what is queued, batch after batch, until the queue is empty. */
  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch: Pending[] = [];
      let n = 0;
      while (
        this.queue.length > 0 &&
        (n === 0 || n + (this.queue[0]?.points.length ?? 0) <= this.maxBatchPoints)
      ) {
        const next = this.queue.shift() as Pending;
        batch.push(next);
        n += next.points.length;
      }
      this.queuedPoints -= n;
      try {
        await this.writer.run((c) => this.commit(c, batch));
        this.stats.commits++;
        this.stats.points += n;
        for (const p of batch) p.resolve();
      } catch (error) {
        const failure = new TelemetryWriteError(`telemetry commit failed: ${(error as Error).message}`, {
          cause: error,
        });
        for (const p of batch) p.reject(failure);
      }
    }
  }

  private group(batch: readonly Pending[], created: SeriesState[]): Group[] {
    const groups: Group[] = [];
    for (const { points } of batch) {
      for (const p of points) {
        let st = this.byKey.get(p.thingId, p.metric);
        if (!st) {
          st = {
            id: this.nextId++,
            thingId: p.thingId,
            metric: p.metric,
            firstTs: null,
            intervalMs: null,
            persistedInterval: null,
            persistedFirstTs: null,
            latestTs: null,
            latestValue: 0,
            tailPrev: null,
            recentTs: [],
            recentValues: [],
            recentFrom: 0,
            group: undefined,
          };
          this.byKey.set(st);
          this.byId.set(st.id, st);
          created.push(st);
        }
        let g = st.group;
        if (!g) {
          g = { st, ts: [], values: [] };
          st.group = g;
          groups.push(g);
        }
        g.ts.push(p.ts);
        g.values.push(p.value);
      }
    }
    for (const g of groups) {
      g.st.group = undefined;
      sortAndDedupe(g);
    }
    return groups;
  }

  private async commit(c: DuckDBConnection, batch: readonly Pending[]): Promise<void> {
    const created: SeriesState[] = [];
    const groups = this.group(batch, created);
    await c.run('BEGIN TRANSACTION');
    try {
      if (created.length > 0) {
        const app = await c.createAppender('series');
        for (const st of created) {
          app.appendInteger(st.id);
          app.appendInteger(st.thingId);
          app.appendVarchar(st.metric);
          app.appendNull();
          app.appendNull();
          app.endRow();
        }
        app.closeSync();
      }

      // Points at a time already stored replace the stored ones (a resent message is not counted twice).
      const overlapping = groups.filter(
        (g) => g.st.latestTs !== null && (g.ts[0] as number) <= g.st.latestTs,
      );
      if (overlapping.length > 0) {
        await c.run('DELETE FROM dup');
        const app = await c.createAppender('dup');
        let lo = Number.POSITIVE_INFINITY;
        let hi = Number.NEGATIVE_INFINITY;
        for (const g of overlapping) {
          for (const ts of g.ts) {
            app.appendInteger(g.st.id);
            app.appendBigInt(BigInt(ts));
            app.endRow();
          }
          lo = Math.min(lo, g.ts[0] as number);
          hi = Math.max(hi, g.ts[g.ts.length - 1] as number);
        }
        app.closeSync();
        await c.run(`DELETE FROM raw USING dup WHERE raw.series_id = dup.series_id AND raw.ts = dup.ts
          AND raw.ts >= ${int(lo)} AND raw.ts <= ${int(hi)}`);
      }

      await appendRaw(c, groups);
      await this.recompute(c, groups);

      const metaUpdates: string[] = [];
      for (const g of groups) {
        const st = g.st;
        const first = Math.min(st.firstTs ?? Number.POSITIVE_INFINITY, g.ts[0] as number);
        const interval = estimateInterval(st, g);
        const roundedInterval = interval === null ? null : Math.round(interval);
        const intervalChanged =
          roundedInterval !== null &&
          (st.persistedInterval === null ||
            Math.abs(roundedInterval - st.persistedInterval) > 0.05 * st.persistedInterval);
        if (first !== st.persistedFirstTs || intervalChanged) {
          const iv = intervalChanged ? roundedInterval : st.persistedInterval;
          metaUpdates.push(`(${int(st.id)}, ${int(first)}, ${iv === null ? 'NULL' : int(iv)})`);
        }
      }
      if (metaUpdates.length > 0) {
        await c.run(`UPDATE series SET first_ts = v.f, interval_ms = v.i
          FROM (VALUES ${metaUpdates.join(',')}) v(id, f, i) WHERE series.id = v.id`);
      }
      await c.run('COMMIT');
    } catch (error) {
      await c.run('ROLLBACK').catch(() => {});
      for (const st of created) {
        this.byKey.delete(st);
        this.byId.delete(st.id);
      }
      // Unknown after a failed batch; looked up again next time.
      for (const g of groups) g.st.tailPrev = undefined;
      throw error;
    }
    // Durable: update the memory view.
    for (const g of groups) {
      const st = g.st;
      const n = g.ts.length;
      const minTs = g.ts[0] as number;
      const maxTs = g.ts[n - 1] as number;
      const inOrder = st.latestTs === null || minTs > st.latestTs;
      const interval = estimateInterval(st, g);
      if (interval !== null) {
        st.intervalMs = interval;
        const rounded = Math.round(interval);
        if (
          st.persistedInterval === null ||
          Math.abs(rounded - st.persistedInterval) > 0.05 * st.persistedInterval
        )
          st.persistedInterval = rounded;
      }
      st.firstTs = Math.min(st.firstTs ?? Number.POSITIVE_INFINITY, minTs);
      st.persistedFirstTs = st.firstTs;
      if (inOrder) {
        const newMinute = floorTo(maxTs, MINUTE);
        let tail: { ts: number; value: number } | null | undefined;
        for (let i = n - 1; i >= 0; i--) {
          if ((g.ts[i] as number) < newMinute) {
            tail = { ts: g.ts[i] as number, value: g.values[i] as number };
            break;
          }
        }
        if (tail === undefined) {
          if (st.latestTs === null) tail = null;
          else if (st.latestTs < newMinute) tail = { ts: st.latestTs, value: st.latestValue };
          else tail = st.tailPrev;
        }
        st.tailPrev = tail;
        st.latestTs = maxTs;
        st.latestValue = g.values[n - 1] as number;
      } else {
        st.tailPrev = undefined;
        if (st.latestTs === null || maxTs >= st.latestTs) {
          st.latestTs = maxTs;
          st.latestValue = g.values[n - 1] as number;
        }
      }
      remember(st, g);
    }
  }

  /** Recomputes the minute, hour and day rollups the groups' points touch (inside the transaction). */
  private async recompute(c: DuckDBConnection, groups: readonly Group[]): Promise<void> {
    interface Range {
      st: SeriesState;
      lo: number;
      hi: number;
      prev: { ts: number; value: number } | null | undefined;
      needsNext: boolean;
      js: boolean;
      g: Group;
    }
    const ranges: Range[] = groups.map((g) => {
      const st = g.st;
      const minTs = g.ts[0] as number;
      const maxTs = g.ts[g.ts.length - 1] as number;
      const lo = floorTo(minTs, MINUTE);
      const hi = floorTo(maxTs, MINUTE) + MINUTE;
      let prev: Range['prev'];
      let js = false;
      if (st.latestTs === null) {
        prev = null;
        js = true;
      } else if (st.latestTs < lo) {
        prev = { ts: st.latestTs, value: st.latestValue };
        js = true;
      } else if (minTs > st.latestTs && floorTo(st.latestTs, MINUTE) === lo) {
        prev = st.tailPrev;
        // In order, and the stored part of the first minute is in memory: minutes computed here.
        js = prev !== undefined && st.recentFrom <= lo;
      }
      return { st, g, lo, hi, prev, js, needsNext: st.latestTs !== null && st.latestTs >= hi };
    });
    const unknown = ranges.filter((r) => r.prev === undefined);
    if (unknown.length > 0) {
      const found = await lastBeforeMinute(
        c,
        unknown.map((r) => ({ id: r.st.id, x: r.lo })),
      );
      for (const r of unknown) r.prev = found.get(r.st.id) ?? null;
    }
    // A late point changes the next bucket with data too (its first step starts at the late point).
    const late = ranges.filter((r) => r.needsNext);
    if (late.length > 0) {
      const minHi = Math.min(...late.map((r) => r.hi));
      const [ids, next] = await columns(
        c,
        `SELECT q.sid, min(m.bucket)::DOUBLE FROM minute m
         JOIN (VALUES ${late.map((r) => `(${int(r.st.id)}, ${int(r.hi)})`).join(',')}) q(sid, hi)
           ON m.series_id = q.sid AND m.bucket >= q.hi
         WHERE m.bucket >= ${int(minHi)} GROUP BY q.sid`,
      );
      const nextBy = new Map<number, number>();
      for (let i = 0; i < (ids?.length ?? 0); i++) nextBy.set(ids?.[i] as number, next?.[i] as number);
      for (const r of late) {
        const nb = nextBy.get(r.st.id);
        if (nb !== undefined) r.hi = nb + MINUTE;
      }
    }

    const cal = this.calendar;
    let gLo = Number.POSITIVE_INFINITY;
    let gHi = Number.NEGATIVE_INFINITY;
    let dayLo = Number.POSITIVE_INFINITY;
    let dayHi = Number.NEGATIVE_INFINITY;
    await c.run('DELETE FROM aff');
    const app = await c.createAppender('aff');
    for (const r of ranges) {
      const dlo = cal.dayOf(r.lo);
      const dhi = cal.dayOf(r.hi - 1) + 1;
      app.appendInteger(r.st.id);
      app.appendBigInt(BigInt(r.lo));
      app.appendBigInt(BigInt(r.hi));
      app.appendBigInt(BigInt(floorTo(r.lo, HOUR)));
      app.appendBigInt(BigInt(ceilTo(r.hi, HOUR)));
      app.appendInteger(dlo);
      app.appendInteger(dhi);
      if (r.prev) {
        app.appendBigInt(BigInt(r.prev.ts));
        app.appendDouble(r.prev.value);
      } else {
        app.appendNull();
        app.appendNull();
      }
      app.appendBoolean(r.js);
      app.endRow();
      gLo = Math.min(gLo, r.lo);
      gHi = Math.max(gHi, r.hi);
      dayLo = Math.min(dayLo, dlo);
      dayHi = Math.max(dayHi, dhi);
    }
    app.closeSync();

    // Minutes from raw points; the previous sample gives the first step (increment and gap).
    await c.run(`DELETE FROM minute USING aff WHERE minute.series_id = aff.series_id
      AND minute.bucket >= aff.lo AND minute.bucket < aff.hi
      AND minute.bucket >= ${int(gLo)} AND minute.bucket < ${int(gHi)}`);
    const inSql = ranges.filter((r) => !r.js);
    if (inSql.length > 0) {
      const sLo = Math.min(...inSql.map((r) => r.lo));
      const sHi = Math.max(...inSql.map((r) => r.hi));
      await c.run(`INSERT INTO minute
        WITH p AS (
          SELECT r.series_id, r.ts, r.value FROM raw r JOIN aff a
            ON r.series_id = a.series_id AND r.ts >= a.lo AND r.ts < a.hi AND NOT a.js
          WHERE r.ts >= ${int(sLo)} AND r.ts < ${int(sHi)}
          UNION ALL SELECT series_id, prev_ts, prev_value FROM aff WHERE prev_ts IS NOT NULL AND NOT js
        ), s AS (
          SELECT series_id, ts, value, ts - lag(ts) OVER w AS gap, lag(value) OVER w AS pv
          FROM p WINDOW w AS (PARTITION BY series_id ORDER BY ts)
        )
        SELECT s.series_id, s.ts // ${MINUTE} * ${MINUTE} AS bucket, ${RAW_AGGREGATES}
        FROM s JOIN aff a ON s.series_id = a.series_id AND NOT a.js WHERE s.ts >= a.lo
        GROUP BY s.series_id, bucket`);
    }
    const inJs = ranges.filter((r) => r.js);
    if (inJs.length > 0) await appendMinutes(c, inJs);

    // Hours from minutes.
    const hLo = floorTo(gLo, HOUR);
    const hHi = ceilTo(gHi, HOUR);
    await c.run(`DELETE FROM hour USING aff WHERE hour.series_id = aff.series_id
      AND hour.bucket >= aff.hlo AND hour.bucket < aff.hhi
      AND hour.bucket >= ${int(hLo)} AND hour.bucket < ${int(hHi)}`);
    await c.run(`INSERT INTO hour
      SELECT m.series_id, m.bucket // ${HOUR} * ${HOUR} AS hb, ${ROLLUP_AGGREGATES}
      FROM minute m JOIN aff a ON m.series_id = a.series_id AND m.bucket >= a.hlo AND m.bucket < a.hhi
      WHERE m.bucket >= ${int(hLo)} AND m.bucket < ${int(hHi)}
      GROUP BY m.series_id, hb`);

    await this.recomputeDays(c, dayLo, dayHi);
  }

  /** Day rows for the days in aff.dlo..dhi: from hours when local midnights fall on whole hours, else minutes. */
  private async recomputeDays(c: DuckDBConnection, dayLo: number, dayHi: number): Promise<void> {
    const cal = this.calendar;
    await c.run('DELETE FROM days');
    const app = await c.createAppender('days');
    let hourAligned = true;
    for (let d = dayLo; d < dayHi; d++) {
      const lo = cal.dayStart(d);
      const hi = cal.dayStart(d + 1);
      if (lo % HOUR !== 0 || hi % HOUR !== 0) hourAligned = false;
      app.appendInteger(d);
      app.appendBigInt(BigInt(lo));
      app.appendBigInt(BigInt(hi));
      app.endRow();
    }
    app.closeSync();
    const source = hourAligned ? 'hour' : 'minute';
    const msLo = cal.dayStart(dayLo);
    const msHi = cal.dayStart(dayHi);
    await c.run(`DELETE FROM day USING aff WHERE day.series_id = aff.series_id
      AND day.bucket >= aff.dlo AND day.bucket < aff.dhi
      AND day.bucket >= ${int(dayLo)} AND day.bucket < ${int(dayHi)}`);
    await c.run(`INSERT INTO day
      SELECT s.series_id, d.day AS db, ${ROLLUP_AGGREGATES}
      FROM ${source} s JOIN days d ON s.bucket >= d.lo AND s.bucket < d.hi
      JOIN aff a ON s.series_id = a.series_id AND d.day >= a.dlo AND d.day < a.dhi
      WHERE s.bucket >= ${int(msLo)} AND s.bucket < ${int(msHi)}
      GROUP BY s.series_id, db`);
  }

  /** After a time-zone change: day rows rebuilt wherever hour (or minute) rollups still exist. */
  private async rebuildDays(c: DuckDBConnection): Promise<void> {
    const [lo, hi] = await columns(c, 'SELECT min(bucket)::DOUBLE, max(bucket)::DOUBLE FROM minute');
    const min = lo?.[0] as number | null;
    const max = hi?.[0] as number | null;
    if (min === null || max === null || this.byId.size === 0) return;
    // Days whose minutes retention may have cut keep their old alignment.
    const cut = this.now() - this.retention.minuteDays * DAY;
    const dayLo = min >= cut ? this.calendar.dayOf(min) : this.calendar.dayOf(cut) + 1;
    const dayHi = this.calendar.dayOf(max) + 1;
    if (dayHi <= dayLo) return;
    await c.run('DELETE FROM aff');
    const app = await c.createAppender('aff');
    for (const st of this.byId.values()) {
      app.appendInteger(st.id);
      for (let i = 0; i < 4; i++) app.appendBigInt(0n);
      app.appendInteger(dayLo);
      app.appendInteger(dayHi);
      app.appendNull();
      app.appendNull();
      app.appendBoolean(false);
      app.endRow();
    }
    app.closeSync();
    await this.recomputeDays(c, dayLo, dayHi);
  }

  // ---------------------------------------------------------------- reads

  private reader(): Lane {
    const [a, b] = this.readers as [Lane, Lane];
    return a.pending <= b.pending ? a : b;
  }

  /** What the store knows of a series: its first sample, typical interval and gap tolerance. */
  describe(
    series: SeriesKey,
  ): { id: number; firstTs: number | null; intervalMs: number | null; gapToleranceMs: number } | undefined {
    const st = this.byKey.get(series.thingId, series.metric);
    if (!st) return undefined;
    return { id: st.id, firstTs: st.firstTs, intervalMs: st.intervalMs, gapToleranceMs: gapTolerance(st) };
  }

  latest(series: readonly SeriesKey[]): LatestValue[] {
    const out: LatestValue[] = [];
    for (const s of series) {
      const st = this.byKey.get(s.thingId, s.metric);
      if (st && st.latestTs !== null) {
        out.push({ thingId: st.thingId, metric: st.metric, ts: st.latestTs, value: st.latestValue });
      }
    }
    return out;
  }

  lastSeen(): Map<number, ThingSeen> {
    const out = new Map<number, ThingSeen>();
    for (const st of this.byId.values()) {
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
    const st = this.byKey.get(series.thingId, series.metric);
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
    const [ts, values] = await this.reader().run((c) =>
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

  /** The bucket layout of a query (exported through `bucketsOf` for tests and the query layer). */
  grid(bucket: BucketSpec, start: number, end: number): Grid {
    const cal = this.calendar;
    if ('calendar' in bucket) {
      const m0 = PlantCalendar.monthOfDay(cal.dayOf(start));
      const m1 = PlantCalendar.monthOfDay(cal.dayOf(end - 1));
      if (bucket.calendar === 'month') return { kind: 'month', m0, n: m1 - m0 + 1 };
      const y0 = Math.floor(m0 / 12);
      return { kind: 'year', m0: y0 * 12, n: Math.floor(m1 / 12) - y0 + 1 };
    }
    const w = bucket.widthMs;
    if (!Number.isSafeInteger(w) || w <= 0)
      throw new RangeError(`bucket width must be a positive integer of ms, got ${w}`);
    if (w % DAY === 0) {
      const d0 = cal.dayOf(start);
      const k = w / DAY;
      return { kind: 'days', d0, k, n: Math.floor((cal.dayOf(end - 1) - d0) / k) + 1 };
    }
    const anchor = cal.startOfDay(start);
    const i0 = Math.floor((start - anchor) / w);
    const i1 = Math.ceil((end - anchor) / w);
    return { kind: 'fixed', base: anchor + i0 * w, width: w, n: i1 - i0 };
  }

  private bucketStart(g: Grid, i: number): number {
    const cal = this.calendar;
    switch (g.kind) {
      case 'fixed':
        return g.base + i * g.width;
      case 'days':
        return cal.dayStart(g.d0 + i * g.k);
      case 'month':
        return cal.dayStart(PlantCalendar.firstDayOfMonth(g.m0 + i));
      case 'year':
        return cal.dayStart(PlantCalendar.firstDayOfMonth(g.m0 + i * 12));
    }
  }

  /** The coarsest stored resolution whose buckets tile this grid exactly. */
  resolutionFor(g: Grid): Resolution {
    if (g.kind !== 'fixed') return 'day';
    if (g.width % HOUR === 0 && g.base % HOUR === 0) return 'hour';
    if (g.width % MINUTE === 0 && g.base % MINUTE === 0) return 'minute';
    return 'raw';
  }

  buckets(query: BucketQuery): Promise<BucketResult> {
    return this.bucketsAt(query);
  }

  /**
   * `buckets()` answered from a given resolution (tests and benchmarks compare them); it must tile
   * the grid: raw, minute or hour for fixed widths aligned to them, day for day/month/year buckets.
   */
  async bucketsAt(query: BucketQuery, at?: Resolution): Promise<BucketResult> {
    const { start, end, aggregator } = query;
    if (!Number.isFinite(start) || !Number.isFinite(end))
      throw new RangeError('start and end must be numbers');
    if (!(end > start)) return { buckets: [], resolution: at ?? 'raw' };
    const g = this.grid(query.bucket, start, end);
    if (g.n * Math.max(1, query.series.length) > MAX_BUCKETS) {
      throw new RangeError(
        `the query asks for ${g.n * query.series.length} buckets, more than ${MAX_BUCKETS}`,
      );
    }
    const coarsest = this.resolutionFor(g);
    const order: Resolution[] = ['raw', 'minute', 'hour', 'day'];
    if (
      at !== undefined &&
      (g.kind === 'fixed' ? order.indexOf(at) > order.indexOf(coarsest) : at !== 'day')
    ) {
      throw new RangeError(`${at} rows do not tile these buckets (the coarsest that does is ${coarsest})`);
    }
    const resolution = at ?? coarsest;
    const known = query.series
      .map((s) => this.byKey.get(s.thingId, s.metric))
      .filter((st): st is SeriesState => st !== undefined);
    const data = known.length > 0 ? await this.aggregate(known, g, resolution, aggregator) : new Map();

    const starts = new Array<number>(g.n + 1);
    for (let i = 0; i <= g.n; i++) starts[i] = this.bucketStart(g, i);
    const now = this.now();
    const buckets: Bucket[] = [];
    for (const s of query.series) {
      const st = this.byKey.get(s.thingId, s.metric);
      const rows = st ? data.get(st.id) : undefined;
      const tolerance = st ? gapTolerance(st) : MIN_GAP_MS;
      for (let i = 0; i < g.n; i++) {
        const bs = starts[i] as number;
        const be = starts[i + 1] as number;
        const a = rows?.get(i);
        if (!a || a.cnt === 0) {
          buckets.push({
            thingId: s.thingId,
            metric: s.metric,
            start: bs,
            value: aggregator === 'count' ? 0 : null,
            count: 0,
            complete: false,
          });
          continue;
        }
        const complete =
          be <= now &&
          st !== undefined &&
          st.firstTs !== null &&
          st.firstTs <= bs &&
          a.maxGap <= tolerance &&
          be - a.lastTs <= tolerance;
        buckets.push({
          thingId: s.thingId,
          metric: s.metric,
          start: bs,
          value:
            aggregator === 'count' ? a.cnt : aggregator === 'avg' ? (a.value as number) / a.cnt : a.value,
          count: a.cnt,
          complete,
        });
      }
    }
    return { buckets, resolution };
  }

  /** Per series id, per bucket index: the aggregate over the grid bucket. */
  private async aggregate(
    known: readonly SeriesState[],
    g: Grid,
    resolution: Resolution,
    aggregator: BucketAggregator,
  ): Promise<Map<number, Map<number, Aggregated>>> {
    const ids = [...new Set(known.map((s) => s.id))].map(int).join(',');
    const { index, lo, hi } = this.indexSql(g, resolution === 'raw' ? 'ts' : 'bucket');
    let sql: string;
    let prev: Map<number, { ts: number; value: number }> | undefined;
    if (resolution === 'raw' && g.kind === 'fixed') {
      const recent = aggregateRecent(known, g, aggregator);
      if (recent) return recent;
    }
    if (resolution === 'raw') {
      const value =
        aggregator === 'avg' || aggregator === 'sum'
          ? 'sum(value)'
          : aggregator === 'min'
            ? 'min(value)'
            : aggregator === 'max'
              ? 'max(value)'
              : aggregator === 'first'
                ? 'arg_min(value, ts)'
                : aggregator === 'last'
                  ? 'arg_max(value, ts)'
                  : aggregator === 'delta'
                    ? `sum(${incrementSql('pv', 'value')})`
                    : 'NULL::DOUBLE';
      sql = `WITH s AS (
          SELECT series_id, ts, value, ts - lag(ts) OVER w AS gap, lag(value) OVER w AS pv
          FROM raw WHERE series_id IN (${ids}) AND ts >= ${int(lo)} AND ts < ${int(hi)}
          WINDOW w AS (PARTITION BY series_id ORDER BY ts))
        SELECT series_id, (${index})::INTEGER AS bi, count(*)::DOUBLE, ${value}, min(ts)::DOUBLE, max(ts)::DOUBLE,
          max(gap)::DOUBLE, arg_min(value, ts)
        FROM s GROUP BY ALL`;
      prev = await this.reader().run((c) => lastBefore(c, known, lo));
    } else {
      const value =
        aggregator === 'avg' || aggregator === 'sum'
          ? 'sum(vsum)'
          : aggregator === 'min'
            ? 'min(vmin)'
            : aggregator === 'max'
              ? 'max(vmax)'
              : aggregator === 'first'
                ? 'arg_min(vfirst, first_ts)'
                : aggregator === 'last'
                  ? 'arg_max(vlast, last_ts)'
                  : aggregator === 'delta'
                    ? 'sum(inc)'
                    : 'NULL::DOUBLE';
      sql = `SELECT series_id, (${index})::INTEGER AS bi, sum(cnt)::DOUBLE, ${value}, min(first_ts)::DOUBLE,
          max(last_ts)::DOUBLE, max(max_gap)::DOUBLE, arg_min(vfirst, first_ts)
        FROM ${resolution} WHERE series_id IN (${ids}) AND bucket >= ${int(lo)} AND bucket < ${int(hi)}
        GROUP BY ALL`;
    }
    const cols = await this.reader().run((c) => columns(c, sql));
    const [sid, bi, cnt, val, fts, lts, gap, fv] = cols as number[][];
    const out = new Map<number, Map<number, Aggregated>>();
    const firstBucket = new Map<number, number>();
    for (let i = 0; i < (sid?.length ?? 0); i++) {
      const id = sid?.[i] as number;
      let m = out.get(id);
      if (!m) {
        m = new Map();
        out.set(id, m);
      }
      const b = bi?.[i] as number;
      m.set(b, {
        cnt: cnt?.[i] as number,
        value: (val?.[i] as number | null) ?? null,
        firstTs: fts?.[i] as number,
        lastTs: lts?.[i] as number,
        maxGap: (gap?.[i] as number | null) ?? 0,
        firstValue: fv?.[i] as number,
      });
      const fb = firstBucket.get(id);
      if (fb === undefined || b < fb) firstBucket.set(id, b);
    }
    if (prev) {
      // Raw: the first sample of each series steps from the last sample before the range.
      for (const [id, b] of firstBucket) {
        const p = prev.get(id);
        const a = out.get(id)?.get(b);
        if (!p || !a) continue;
        a.maxGap = Math.max(a.maxGap, a.firstTs - p.ts);
        if (aggregator === 'delta') a.value = (a.value ?? 0) + counterIncrement(p.value, a.firstValue);
      }
    }
    return out;
  }

  /** SQL for the bucket index of a row and the stored range [lo, hi) to read. */
  private indexSql(g: Grid, col: string): { index: string; lo: number; hi: number } {
    switch (g.kind) {
      case 'fixed':
        return {
          index: `(${col} - ${int(g.base)}) // ${int(g.width)}`,
          lo: g.base,
          hi: g.base + g.n * g.width,
        };
      case 'days':
        return { index: `(${col} - ${int(g.d0)}) // ${int(g.k)}`, lo: g.d0, hi: g.d0 + g.n * g.k };
      case 'month':
        return {
          index: `year(DATE '1970-01-01' + ${col}::INTEGER) * 12 + month(DATE '1970-01-01' + ${col}::INTEGER) - 1 - ${int(g.m0)}`,
          lo: PlantCalendar.firstDayOfMonth(g.m0),
          hi: PlantCalendar.firstDayOfMonth(g.m0 + g.n),
        };
      case 'year':
        return {
          index: `year(DATE '1970-01-01' + ${col}::INTEGER) - ${int(g.m0 / 12)}`,
          lo: PlantCalendar.firstDayOfMonth(g.m0),
          hi: PlantCalendar.firstDayOfMonth(g.m0 + g.n * 12),
        };
    }
  }

  /**
   * About `maxPoints` points of one series over [start, end) for a chart: the raw points when
   * there are few enough, else the minimum and maximum of each bucket (with their own times), on
   * the coarsest resolution whose buckets fit. Buckets are the `buckets()` grid, so the rollups
   * answer: 30 days into ≤ 2,000 points reads 720 hour rows.
   */
  async downsample(series: SeriesKey, start: number, end: number, maxPoints: number): Promise<Point[]> {
    const st = this.byKey.get(series.thingId, series.metric);
    if (!st || !(end > start) || maxPoints < 1) return [];
    const need = (end - start) / Math.max(1, Math.floor(maxPoints / 2));
    if (need <= (st.intervalMs ?? MINUTE)) {
      const pts = await this.points(series, start, end, maxPoints + 1);
      if (pts.length <= maxPoints) return pts;
    }
    const width = NICE_WIDTHS.find((w) => w >= need) ?? ceilTo(need, DAY);
    const g = this.grid({ widthMs: width }, start, end);
    const resolution = this.resolutionFor(g);
    const { index, lo, hi } = this.indexSql(g, resolution === 'raw' ? 'ts' : 'bucket');
    const sql =
      resolution === 'raw'
        ? `SELECT (${index})::INTEGER AS bi, min(value), arg_min(ts, value)::DOUBLE, max(value), arg_max(ts, value)::DOUBLE
           FROM raw WHERE series_id = ${int(st.id)} AND ts >= ${int(lo)} AND ts < ${int(hi)} GROUP BY bi ORDER BY bi`
        : `SELECT (${index})::INTEGER AS bi, min(vmin), arg_min(min_ts, vmin)::DOUBLE, max(vmax), arg_max(max_ts, vmax)::DOUBLE
           FROM ${resolution} WHERE series_id = ${int(st.id)} AND bucket >= ${int(lo)} AND bucket < ${int(hi)}
           GROUP BY bi ORDER BY bi`;
    const [, mins, minTs, maxs, maxTs] = (await this.reader().run((c) => columns(c, sql))) as number[][];
    const out: Point[] = [];
    const push = (ts: number, value: number) => {
      if (ts >= start && ts < end) out.push({ thingId: st.thingId, metric: st.metric, ts, value });
    };
    for (let i = 0; i < (mins?.length ?? 0); i++) {
      const a = minTs?.[i] as number;
      const b = maxTs?.[i] as number;
      if (a === b) push(a, mins?.[i] as number);
      else if (a < b) {
        push(a, mins?.[i] as number);
        push(b, maxs?.[i] as number);
      } else {
        push(b, maxs?.[i] as number);
        push(a, mins?.[i] as number);
      }
    }
    return out;
  }

  // ---------------------------------------------------------------- maintenance

  /**
   * Deletes raw points, minute and hour rows older than their retention (cut at a whole hour);
   * day rows are kept. Runs between commits on the writer connection, then checkpoints.
   */
  async applyRetention(now: number): Promise<void> {
    const cut = (days: number) => floorTo(now - days * DAY, HOUR);
    await this.writer.run(async (c) => {
      await c.run(`DELETE FROM raw WHERE ts < ${int(cut(this.retention.rawDays))}`);
      await c.run(`DELETE FROM minute WHERE bucket < ${int(cut(this.retention.minuteDays))}`);
      await c.run(`DELETE FROM hour WHERE bucket < ${int(cut(this.retention.hourDays))}`);
      await c.run('CHECKPOINT');
    });
  }

  /** Forces a checkpoint (WAL into the database file). */
  async checkpoint(): Promise<void> {
    await this.writer.run((c) => c.run('CHECKPOINT'));
  }

  /**
   * Recomputes every rollup from the level below (minutes from raw points) and counts the rows
   * that differ from the stored ones (relative tolerance 1e-9 on sums: summation order may differ).
   * Minutes before the oldest raw point of a series are skipped (retention removed their points).
   */
  async checkRollups(): Promise<{ minute: number; hour: number; day: number }> {
    const diff = (a: string, b: string) =>
      `${a}.cnt IS DISTINCT FROM ${b}.cnt OR ${a}.first_ts IS DISTINCT FROM ${b}.first_ts OR ${a}.last_ts IS DISTINCT FROM ${b}.last_ts
       OR ${a}.vmin IS DISTINCT FROM ${b}.vmin OR ${a}.vmax IS DISTINCT FROM ${b}.vmax OR ${a}.vfirst IS DISTINCT FROM ${b}.vfirst
       OR ${a}.vlast IS DISTINCT FROM ${b}.vlast OR coalesce(${a}.max_gap, 0) IS DISTINCT FROM coalesce(${b}.max_gap, 0)
       OR ${a}.vsum IS NULL OR ${b}.vsum IS NULL OR abs(${a}.vsum - ${b}.vsum) > 1e-9 * greatest(1, abs(${a}.vsum))
       OR abs(${a}.inc - ${b}.inc) > 1e-9 * greatest(1, abs(${a}.inc))`;
    const cols = 'series_id, bucket, cnt, vsum, vmin, vmax, vfirst, first_ts, vlast, last_ts, inc, max_gap';
    return this.writer.run(async (c) => {
      const minute = await scalar(
        c,
        `WITH s AS (SELECT series_id, ts, value, ts - lag(ts) OVER w AS gap, lag(value) OVER w AS pv
            FROM raw WINDOW w AS (PARTITION BY series_id ORDER BY ts)),
          f AS (SELECT series_id, min(ts) // ${MINUTE} * ${MINUTE} AS fb FROM raw GROUP BY series_id),
          e AS (SELECT series_id, ts // ${MINUTE} * ${MINUTE} AS bucket, ${RAW_AGGREGATES} FROM s GROUP BY ALL),
          x AS (SELECT ${cols} FROM (SELECT * FROM e) e(${cols}, min_ts, max_ts))
        SELECT count(*)::DOUBLE FROM x FULL OUTER JOIN minute y ON x.series_id = y.series_id AND x.bucket = y.bucket
        JOIN f ON f.series_id = coalesce(x.series_id, y.series_id)
        WHERE coalesce(x.bucket, y.bucket) > f.fb AND (${diff('x', 'y')})`,
      );
      const hour = await scalar(
        c,
        `WITH x AS (SELECT ${cols} FROM (SELECT series_id, bucket // ${HOUR} * ${HOUR} AS hb, ${ROLLUP_AGGREGATES}
            FROM minute GROUP BY series_id, hb) t(${cols}, min_ts, max_ts)),
          f AS (SELECT series_id, min(bucket) // ${HOUR} * ${HOUR} AS fb FROM minute GROUP BY series_id)
        SELECT count(*)::DOUBLE FROM x FULL OUTER JOIN hour y ON x.series_id = y.series_id AND x.bucket = y.bucket
        JOIN f ON f.series_id = coalesce(x.series_id, y.series_id)
        WHERE coalesce(x.bucket, y.bucket) > f.fb AND (${diff('x', 'y')})`,
      );
      // Days: compare over the days fully covered by minute rows.
      const [lo, hi] = await columns(c, 'SELECT min(bucket)::DOUBLE, max(bucket)::DOUBLE FROM minute');
      let day = 0;
      const min = lo?.[0] as number | null;
      const max = hi?.[0] as number | null;
      if (min !== null && max !== null) {
        const d0 = this.calendar.dayOf(min) + 1;
        const d1 = this.calendar.dayOf(max) + 1;
        if (d1 > d0) {
          const values: string[] = [];
          for (let d = d0; d < d1; d++)
            values.push(`(${d}, ${int(this.calendar.dayStart(d))}, ${int(this.calendar.dayStart(d + 1))})`);
          day = await scalar(
            c,
            `WITH d(day, lo, hi) AS (VALUES ${values.join(',')}),
              x AS (SELECT ${cols} FROM (SELECT m.series_id, d.day, ${ROLLUP_AGGREGATES}
                FROM minute m JOIN d ON m.bucket >= d.lo AND m.bucket < d.hi GROUP BY m.series_id, d.day) t(${cols}, min_ts, max_ts)),
              y AS (SELECT * FROM day WHERE bucket >= ${d0} AND bucket < ${d1})
            SELECT count(*)::DOUBLE FROM x FULL OUTER JOIN y ON x.series_id = y.series_id AND x.bucket = y.bucket
            WHERE ${diff('x', 'y')}`,
          );
        }
      }
      return { minute, hour, day };
    });
  }

  /** Waits for queued writes, then closes DuckDB (which checkpoints). Later writes are refused. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.kick();
    while (this.committing) await this.committing;
    await this.writer.run(async () => {});
    for (const r of this.readers) await r.run(async () => {});
    this.writer.conn.closeSync();
    for (const r of this.readers) r.conn.closeSync();
    this.instance.closeSync();
  }
}

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

/** Gap tolerance of a series: max(3 × its typical interval, 60 s). */
function gapTolerance(st: SeriesState): number {
  return Math.max(3 * (st.intervalMs ?? 0), MIN_GAP_MS);
}

/** Sorts a group's points by time; of points at the same time, the last written wins. */
function sortAndDedupe(g: Group): void {
  const n = g.ts.length;
  let sorted = true;
  for (let i = 1; i < n; i++) {
    if ((g.ts[i] as number) <= (g.ts[i - 1] as number)) {
      sorted = false;
      break;
    }
  }
  if (sorted) return;
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => (g.ts[a] as number) - (g.ts[b] as number) || a - b); // stable: arrival order
  const ts: number[] = [];
  const values: number[] = [];
  for (const i of order) {
    const t = g.ts[i] as number;
    if (ts.length > 0 && ts[ts.length - 1] === t) values[values.length - 1] = g.values[i] as number;
    else {
      ts.push(t);
      values.push(g.values[i] as number);
    }
  }
  g.ts = ts;
  g.values = values;
}

/**
 * Typical spacing of a series: an exponential average of the steps between in-order samples,
 * each step capped at 4 × the estimate so a gap moves it little (a real change of rate moves it
 * within tens of samples). Late batches leave it as it is.
 */
function estimateInterval(st: SeriesState, g: Group): number | null {
  let est = st.intervalMs;
  if (st.latestTs !== null && (g.ts[0] as number) <= st.latestTs) return est;
  let prev = st.latestTs;
  for (const t of g.ts) {
    if (prev !== null) {
      const d = t - prev;
      est = est === null ? d : est + 0.1 * (Math.min(d, 4 * est) - est);
    }
    prev = t;
  }
  return est;
}

async function appendRaw(c: DuckDBConnection, groups: readonly Group[]): Promise<void> {
  const app = await c.createAppender('raw');
  const CHUNK = 2048;
  let chunks = 0;
  let sid: number[] = [];
  let ts: bigint[] = [];
  let val: number[] = [];
  const flush = () => {
    const chunk = DuckDBDataChunk.create([INTEGER, BIGINT, DOUBLE], sid.length);
    chunk.setColumns([sid, ts, val]);
    app.appendDataChunk(chunk);
    sid = [];
    ts = [];
    val = [];
  };
  for (const g of groups) {
    const id = g.st.id;
    for (let i = 0; i < g.ts.length; i++) {
      sid.push(id);
      ts.push(BigInt(g.ts[i] as number));
      val.push(g.values[i] as number);
      if (sid.length === CHUNK) {
        flush();
        // Let queries and acknowledgements run between chunks of a large batch.
        if (++chunks % 8 === 0) await yieldToLoop();
      }
    }
  }
  if (sid.length > 0) flush();
  app.closeSync();
}

/** Last sample strictly before minute-aligned `x` of each series, from minute then hour rollups. */
async function lastBeforeMinute(
  c: DuckDBConnection,
  pairs: readonly { id: number; x: number }[],
): Promise<Map<number, { ts: number; value: number }>> {
  const out = new Map<number, { ts: number; value: number }>();
  if (pairs.length === 0) return out;
  const q = `(VALUES ${pairs.map((p) => `(${int(p.id)}, ${int(p.x)})`).join(',')}) q(sid, x)`;
  const minX = Math.min(...pairs.map((p) => p.x));
  const maxX = Math.max(...pairs.map((p) => p.x));
  const read = (cols: unknown[][]) => {
    const [ids, values, ts] = cols;
    for (let i = 0; i < (ids?.length ?? 0); i++) {
      out.set(ids?.[i] as number, { ts: ts?.[i] as number, value: values?.[i] as number });
    }
  };
  read(
    await columns(
      c,
      `SELECT q.sid, arg_max(m.vlast, m.last_ts), max(m.last_ts)::DOUBLE FROM minute m JOIN ${q}
         ON m.series_id = q.sid AND m.bucket < q.x AND m.bucket >= q.x - ${PREV_LOOKBACK}
       WHERE m.bucket >= ${int(minX - PREV_LOOKBACK)} AND m.bucket < ${int(maxX)} GROUP BY q.sid`,
    ),
  );
  const missing = pairs.filter((p) => !out.has(p.id));
  if (missing.length > 0) {
    // Nothing in the lookback: the hour rows that end before it hold the last sample.
    const q2 = `(VALUES ${missing.map((p) => `(${int(p.id)}, ${int(p.x)})`).join(',')}) q(sid, x)`;
    read(
      await columns(
        c,
        `SELECT q.sid, arg_max(h.vlast, h.last_ts), max(h.last_ts)::DOUBLE FROM hour h JOIN ${q2}
           ON h.series_id = q.sid AND h.bucket < q.x - ${PREV_LOOKBACK} GROUP BY q.sid`,
      ),
    );
  }
  return out;
}

/** Last sample strictly before `x` (any ms) of each series: raw points of x's minute, then rollups. */
async function lastBefore(
  c: DuckDBConnection,
  series: readonly SeriesState[],
  x: number,
): Promise<Map<number, { ts: number; value: number }>> {
  const m = floorTo(x, MINUTE);
  const out = new Map<number, { ts: number; value: number }>();
  if (m < x) {
    const [ids, values, ts] = await columns(
      c,
      `SELECT series_id, arg_max(value, ts), max(ts)::DOUBLE FROM raw
       WHERE series_id IN (${series.map((s) => int(s.id)).join(',')}) AND ts >= ${int(m)} AND ts < ${int(x)}
       GROUP BY series_id`,
    );
    for (let i = 0; i < (ids?.length ?? 0); i++) {
      out.set(ids?.[i] as number, { ts: ts?.[i] as number, value: values?.[i] as number });
    }
  }
  const rest = series.filter((s) => !out.has(s.id) && s.firstTs !== null && s.firstTs < x);
  if (rest.length > 0) {
    for (const [id, v] of await lastBeforeMinute(
      c,
      rest.map((s) => ({ id: s.id, x: m })),
    )) {
      out.set(id, v);
    }
  }
  return out;
}

/** Raw buckets from the recent points in memory, when they hold the range and the sample before it. */
function aggregateRecent(
  known: readonly SeriesState[],
  g: Extract<Grid, { kind: 'fixed' }>,
  aggregator: BucketAggregator,
): Map<number, Map<number, Aggregated>> | undefined {
  const lo = g.base;
  const hi = g.base + g.n * g.width;
  const plan: { st: SeriesState; from: number; prev: { ts: number; value: number } | null }[] = [];
  for (const st of known) {
    if (st.recentFrom > lo) return undefined;
    const from = lowerBound(st.recentTs, lo);
    let prev: { ts: number; value: number } | null = null;
    if (from > 0) prev = { ts: st.recentTs[from - 1] as number, value: st.recentValues[from - 1] as number };
    else if (st.firstTs !== null && st.firstTs < lo) return undefined; // the previous sample is not in memory
    plan.push({ st, from, prev });
  }
  const out = new Map<number, Map<number, Aggregated>>();
  const bucketOf = (t: number) => Math.floor((t - g.base) / g.width);
  for (const { st, from, prev } of plan) {
    const m = new Map<number, Aggregated>();
    out.set(st.id, m);
    const to = lowerBound(st.recentTs, hi);
    aggregateRun(st.recentTs, st.recentValues, from, to, prev, bucketOf, (b, a) => {
      const value =
        aggregator === 'avg' || aggregator === 'sum'
          ? a.sum
          : aggregator === 'min'
            ? a.min
            : aggregator === 'max'
              ? a.max
              : aggregator === 'first'
                ? a.first
                : aggregator === 'last'
                  ? a.last
                  : aggregator === 'delta'
                    ? a.inc
                    : null;
      m.set(b, {
        cnt: a.cnt,
        value,
        firstTs: a.firstTs,
        lastTs: a.lastTs,
        maxGap: a.maxGap ?? 0,
        firstValue: a.first,
      });
    });
  }
  return out;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** First index of a sorted array whose value is ≥ x. */
function lowerBound(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((xs[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Merges a committed group into the series' recent points and drops what is older than the window. */
function remember(st: SeriesState, g: Group): void {
  let ts = st.recentTs;
  let values = st.recentValues;
  const first = lowerBound(g.ts, st.recentFrom);
  if (first < g.ts.length) {
    if (ts.length === 0 || (g.ts[first] as number) > (ts[ts.length - 1] as number)) {
      for (let i = first; i < g.ts.length; i++) {
        ts.push(g.ts[i] as number);
        values.push(g.values[i] as number);
      }
    } else {
      const mts: number[] = [];
      const mvs: number[] = [];
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
      ts = mts;
      values = mvs;
    }
  }
  const newest = ts.length > 0 ? (ts[ts.length - 1] as number) : 0;
  const k = Math.max(lowerBound(ts, newest - RECENT_WINDOW), ts.length - RECENT_CAP);
  if (k > 0) {
    st.recentFrom = (ts[k - 1] as number) + 1;
    ts = ts.slice(k);
    values = values.slice(k);
  }
  st.recentTs = ts;
  st.recentValues = values;
}

/** Aggregates of a run of samples (oldest first) per bucket index, like the SQL over raw points. */
function aggregateRun(
  ts: readonly number[],
  values: readonly number[],
  from: number,
  to: number,
  prev: { ts: number; value: number } | null,
  bucketOf: (ts: number) => number,
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
      };
    }
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
    cur.inc += counterIncrement(pV, v);
    if (pTs !== null) cur.maxGap = cur.maxGap === null ? t - pTs : Math.max(cur.maxGap, t - pTs);
    pTs = t;
    pV = v;
  }
  if (cur) each(curBucket, cur);
}

interface MinuteAggregate {
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
}

const MINUTE_TYPES = [
  INTEGER,
  BIGINT,
  INTEGER,
  DOUBLE,
  DOUBLE,
  DOUBLE,
  DOUBLE,
  BIGINT,
  DOUBLE,
  BIGINT,
  DOUBLE,
  BIGINT,
  BIGINT,
  BIGINT,
];

/**
 * Minute rows of in-order batches, computed here from the batch, the stored part of its first
 * minute (recent points in memory) and the previous sample; appended to the minute table.
 */
async function appendMinutes(
  c: DuckDBConnection,
  ranges: readonly {
    st: SeriesState;
    g: Group;
    lo: number;
    prev: { ts: number; value: number } | null | undefined;
  }[],
): Promise<void> {
  const app = await c.createAppender('minute');
  let cols: (number | bigint | null)[][] = MINUTE_TYPES.map(() => []);
  const flush = () => {
    const chunk = DuckDBDataChunk.create(MINUTE_TYPES, cols[0]?.length ?? 0);
    chunk.setColumns(cols as never);
    app.appendDataChunk(chunk);
    cols = MINUTE_TYPES.map(() => []);
  };
  const bucketOf = (t: number) => t - (t % MINUTE);
  for (const r of ranges) {
    const id = r.st.id;
    const emit = (bucket: number, a: MinuteAggregate) => {
      const row = [
        id,
        BigInt(bucket),
        a.cnt,
        a.sum,
        a.min,
        a.max,
        a.first,
        BigInt(a.firstTs),
        a.last,
        BigInt(a.lastTs),
        a.inc,
        a.maxGap === null ? null : BigInt(a.maxGap),
        BigInt(a.minTs),
        BigInt(a.maxTs),
      ];
      for (let k = 0; k < row.length; k++) (cols[k] as unknown[]).push(row[k]);
      if ((cols[0]?.length ?? 0) === 2048) flush();
    };
    // The stored samples of the first minute (in memory), then the batch.
    const head = lowerBound(r.st.recentTs, r.lo);
    const ts = r.st.recentTs.slice(head).concat(r.g.ts);
    const values = r.st.recentValues.slice(head).concat(r.g.values);
    aggregateRun(ts, values, 0, ts.length, r.prev ?? null, bucketOf, emit);
    if (ts.length > 0 && (cols[0]?.length ?? 0) % 512 === 0) await yieldToLoop();
  }
  if ((cols[0]?.length ?? 0) > 0) flush();
  app.closeSync();
}
