/**
 * Writes: points checked, queued, and group-committed (concurrent write() calls share one
 * transaction) with their rollups; the memory view of each series is updated once durable.
 */
import { BIGINT, DOUBLE, type DuckDBConnection, INTEGER } from '@duckdb/node-api';
import type { PlantCalendar } from '@kilowatch/contract/calendar';
import { sortAndDedupe } from '../batch-points.ts';
import { GroupCommit } from '../group-commit.ts';
import { batchProblem, type Point, type PointBatch, pointProblem, TelemetryWriteError } from '../store.ts';
import {
  appendChunks,
  type InsertRows,
  insertChunks,
  int64Words,
  itemsOf,
  Slices,
  setInt64,
} from './chunks.ts';
import type { MinuteHorizon } from './minutes.ts';
import type { RollupCache } from './rollup-cache.ts';
import { type Recomputed, recompute } from './rollups.ts';
import { emptyScratch, int, type Lane } from './schema.ts';
import { estimateInterval, type Group, remember, type SeriesState, type SeriesTable } from './series.ts';

/** What one write() or writeBatch() call queued. */
type Written = readonly Point[] | PointBatch;

const sizeOf = (w: Written) => ('ts' in w ? w.ts.length : w.length);

const RAW_TYPES = [INTEGER, BIGINT, DOUBLE];

export interface WriterOptions {
  /** The writer connection (every write and maintenance statement runs on it, in order). */
  lane: Lane;
  series: SeriesTable;
  /** Kept current with each commit's hour and day rows. */
  rollups: RollupCache;
  calendar: PlantCalendar;
  /** Every write is at or above it (the store's writableFrom). */
  horizon: MinuteHorizon;
  /** How long the first write of a batch waits for company, ms. */
  commitDelayMs: number;
  /** A batch is committed at once when it reaches this many points. */
  maxBatchPoints: number;
}

export class Writer {
  /**
   * Commits and points committed since open (group commit shows as points per commit), and the
   * series' groups committed and those whose hours and days were computed in JS (rollups.ts).
   */
  readonly stats = { commits: 0, points: 0, groups: 0, carried: 0 };
  private readonly lane: Lane;
  private readonly series: SeriesTable;
  private readonly rollups: RollupCache;
  private readonly calendar: PlantCalendar;
  private readonly horizon: MinuteHorizon;
  private readonly commits: GroupCommit<Written>;

  constructor(options: WriterOptions) {
    this.lane = options.lane;
    this.series = options.series;
    this.rollups = options.rollups;
    this.calendar = options.calendar;
    this.horizon = options.horizon;
    this.commits = new GroupCommit({
      delayMs: options.commitDelayMs,
      maxSize: options.maxBatchPoints,
      size: sizeOf,
      commit: async (batches, n) => {
        // History written below what is stored (the demo's backfill) gets a transaction of its
        // own: in one with live points of the same series, each series' group would span from the
        // history to now, and its rollups be recomputed over all of that at every commit.
        // Its rows are appended (appendChunks): nobody waits on it, and the history's generation
        // holds the event loop that each chunk of insertChunks() waits for.
        const below = new Set(batches.filter((w) => this.belowFirst(w)));
        const rest = below.size === 0 ? batches : batches.filter((w) => !below.has(w));
        for (const [part, history] of [
          [rest, false],
          [[...below], true],
        ] as const) {
          if (part.length === 0) continue;
          await this.lane.run((c) => this.commit(c, part, history));
          this.stats.commits++;
        }
        this.stats.points += n;
      },
      failure: 'telemetry commit failed',
    });
  }

  /** Checks every point (none older than `from`), then queues them; resolves once durable. */
  write(points: readonly Point[], from: number): Promise<void> {
    if (points.length === 0) return Promise.resolve();
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

  /** write() of a column batch. */
  writeBatch(batch: PointBatch, from: number): Promise<void> {
    if (batch.ts.length === 0) return Promise.resolve();
    const bad = batchProblem(batch, from);
    if (bad) return Promise.reject(new TelemetryWriteError(`${bad.at}: ${bad.problem}; nothing was written`));
    return this.commits.add(batch);
  }

  /** A column batch wholly before the first stored point of each of its series. */
  private belowFirst(w: Written): boolean {
    if (!('ts' in w)) return false;
    const { ts } = w;
    let max = Number.NEGATIVE_INFINITY;
    // Indexed: `for … of` over the batch's times boxed each one (10 % of what MQTT ingest allocated).
    for (let i = 0; i < ts.length; i++) if ((ts[i] as number) > max) max = ts[i] as number;
    return w.metrics.every((m) => {
      const first = this.series.get(w.thingId, m)?.firstTs;
      return first !== undefined && first !== null && max < first;
    });
  }

  /** Commits everything queued; resolves when nothing is left. */
  flush(): Promise<void> {
    return this.commits.flush();
  }

  private async group(batch: readonly Written[], created: SeriesState[], slices: Slices): Promise<Group[]> {
    const groups: Group[] = [];
    const groupOf = (thingId: number, metric: string): Group => {
      let st = this.series.get(thingId, metric);
      if (!st) {
        st = this.series.create(thingId, metric);
        created.push(st);
      }
      let g = st.group;
      if (!g) {
        g = { st, ts: [], values: [] };
        st.group = g;
        groups.push(g);
      }
      return g;
    };
    for (const written of batch) {
      if ('ts' in written) {
        // A column batch: one series lookup per metric, not per value.
        const byMetric = written.metrics.map((m) => groupOf(written.thingId, m));
        for (let i = 0; i < written.ts.length; i++) {
          const g = byMetric[written.metric[i] as number] as Group;
          g.ts.push(written.ts[i] as number);
          g.values.push(written.values[i] as number);
        }
      } else {
        for (const p of written) {
          const g = groupOf(p.thingId, p.metric);
          g.ts.push(p.ts);
          g.values.push(p.value);
        }
      }
      await slices.pause();
    }
    for (const g of groups) {
      g.st.group = undefined;
      sortAndDedupe(g);
      await slices.pause();
    }
    return groups;
  }

  private async commit(c: DuckDBConnection, batch: readonly Written[], history: boolean): Promise<void> {
    const created: SeriesState[] = [];
    const slices = new Slices();
    const insert: InsertRows = history
      ? (conn, table, source) => appendChunks(conn, table, source, slices)
      : insertChunks;
    const groups = await this.group(batch, created, slices);
    let rollups: Recomputed | undefined;
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

      // Points at a time already stored replace the stored ones (a resent message is not counted
      // twice). A batch wholly before the series' first point (history written backwards) has none.
      const overlapping = groups.filter(
        (g) =>
          g.st.latestTs !== null &&
          (g.ts[0] as number) <= g.st.latestTs &&
          !(g.st.firstTs !== null && (g.ts[g.ts.length - 1] as number) < g.st.firstTs),
      );
      if (overlapping.length > 0) {
        await emptyScratch(c, 'dup');
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

      await appendRaw(c, groups, insert);
      rollups = await recompute(c, this.calendar, groups, slices, insert, this.horizon.at);

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
        this.series.delete(st);
      }
      // Unknown after a failed batch; looked up again next time.
      for (const g of groups) {
        g.st.openHour = undefined;
        g.st.openDay = undefined;
      }
      throw error;
    }
    // Durable: update the memory view.
    const done = rollups as Recomputed;
    this.rollups.committed(done.hours, done.days, done.inSql);
    this.stats.groups += groups.length;
    this.stats.carried += groups.length - done.inSql.length;
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
      // Rows computed in SQL are not in memory: the series' next rows in these buckets come from SQL too.
      st.openHour = g.hour;
      st.openDay = g.day;
      st.firstTs = Math.min(st.firstTs ?? Number.POSITIVE_INFINITY, minTs);
      st.persistedFirstTs = st.firstTs;
      if (inOrder) {
        st.latestTs = maxTs;
        st.latestValue = g.values[n - 1] as number;
      } else {
        if (st.latestTs === null || maxTs >= st.latestTs) {
          st.latestTs = maxTs;
          st.latestValue = g.values[n - 1] as number;
        }
      }
      remember(st, g);
    }
  }
}

/**
 * Inserts the groups' points into `raw` a data chunk at a time, each column filled as a typed
 * array (no BigInt or array per value).
 */
function appendRaw(c: DuckDBConnection, groups: readonly Group[], insert: InsertRows): Promise<void> {
  let gi = 0;
  let i = 0;
  return insert(c, 'raw', {
    types: RAW_TYPES,
    rows: groups.reduce((n, g) => n + g.ts.length, 0),
    fill(chunk, rows) {
      const sidVector = chunk.getColumnVector(0);
      const tsVector = chunk.getColumnVector(1);
      const valVector = chunk.getColumnVector(2);
      const sid = itemsOf(sidVector, Int32Array);
      const words = int64Words(tsVector);
      const val = itemsOf(valVector, Float64Array);
      for (let r = 0; r < rows; ) {
        const g = groups[gi] as Group;
        const take = Math.min(rows - r, g.ts.length - i);
        sid.fill(g.st.id, r, r + take);
        for (let k = 0; k < take; k++) {
          setInt64(words, r + k, g.ts[i + k] as number);
          val[r + k] = g.values[i + k] as number;
        }
        r += take;
        i += take;
        if (i === g.ts.length) {
          gi++;
          i = 0;
        }
      }
      sidVector.flush();
      tsVector.flush();
      valVector.flush();
    },
  });
}
