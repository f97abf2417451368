/**
 * Writes: points checked, queued, and group-committed (concurrent write() calls share one
 * transaction) with their rollups; the memory view of each series is updated once durable.
 */
import { BIGINT, DOUBLE, type DuckDBConnection, DuckDBDataChunk, INTEGER } from '@duckdb/node-api';
import { MINUTE, type PlantCalendar } from '@kilowatch/contract/calendar';
import { floorTo } from '../buckets.ts';
import { GroupCommit } from '../group-commit.ts';
import { type Point, pointProblem, TelemetryWriteError } from '../store.ts';
import { recompute } from './rollups.ts';
import { int, type Lane, yieldToLoop } from './schema.ts';
import {
  estimateInterval,
  type Group,
  remember,
  type SeriesState,
  type SeriesTable,
  sortAndDedupe,
} from './series.ts';

export interface WriterOptions {
  /** The writer connection (every write and maintenance statement runs on it, in order). */
  lane: Lane;
  series: SeriesTable;
  calendar: PlantCalendar;
  /** How long the first write of a batch waits for company, ms. */
  commitDelayMs: number;
  /** A batch is committed at once when it reaches this many points. */
  maxBatchPoints: number;
}

export class Writer {
  /** Commits and points committed since open (group commit shows as points per commit). */
  readonly stats = { commits: 0, points: 0 };
  private readonly lane: Lane;
  private readonly series: SeriesTable;
  private readonly calendar: PlantCalendar;
  private readonly commits: GroupCommit<readonly Point[]>;

  constructor(options: WriterOptions) {
    this.lane = options.lane;
    this.series = options.series;
    this.calendar = options.calendar;
    this.commits = new GroupCommit({
      delayMs: options.commitDelayMs,
      maxSize: options.maxBatchPoints,
      size: (points) => points.length,
      commit: async (batches, n) => {
        await this.lane.run((c) => this.commit(c, batches));
        this.stats.commits++;
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

  /** Commits everything queued; resolves when nothing is left. */
  flush(): Promise<void> {
    return this.commits.flush();
  }

  private group(batch: readonly (readonly Point[])[], created: SeriesState[]): Group[] {
    const groups: Group[] = [];
    for (const points of batch) {
      for (const p of points) {
        let st = this.series.get(p.thingId, p.metric);
        if (!st) {
          st = this.series.create(p.thingId, p.metric);
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

  private async commit(c: DuckDBConnection, batch: readonly (readonly Point[])[]): Promise<void> {
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
      await recompute(c, this.calendar, groups);

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
