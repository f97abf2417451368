/**
 * Compaction: each closed window of two UTC days of raw points, and of minute rows, is rewritten
 * once, in blocks of whole series. Commits append a series' points in runs of a few hundred, so
 * nearly every 2,048-value group of `ts` holds a jump back in time and DuckDB bit-packs it at ~25
 * bits; sorted by series and time, a window holds runs of thousands of evenly spaced times per
 * series (stored as constant deltas). Minute rows are appended minute by minute (all series of a
 * minute together), which compresses well (a minute's times repeat across series) but leaves every
 * row group holding every series; a window's 2,880 minutes per series are too short a run to sort
 * by series (each 2,048-value group of a time column would hold a jump back: 5.95 → 8.15 B/point
 * on the 10-day store benchmark), so they are rewritten minute by minute within blocks of about
 * half a row group of series. Either way the row groups' zone maps on `series_id` let a read of
 * one series skip the others.
 */
import { DAY, HOUR } from '@kilowatch/contract/calendar';
import { floorTo } from '../buckets.ts';
import { columns, int, type Lane } from './schema.ts';

/**
 * The span rewritten as one, from a multiple of it since the epoch. Longer runs per series compress
 * better (a jump back spoils its whole 2,048-value group; a row group of fewer series suits ALP's
 * sampled exponents): raw points of the 10-day store benchmark sorted by 1 / 2 / 7 days / all at
 * once took 3.8 / 2.7 / 2.5 / 1.9 B each; but rows stay unsorted until their window closes.
 */
const WINDOW = 2 * DAY;

/**
 * A window is rewritten once the newest point stored is this far past its end: late points have
 * mostly come in by then. The newest point, not the clock: history written fast (a backfill)
 * reaches a window after the clock has long passed it.
 */
const SETTLE_MS = HOUR;

/**
 * A table compacted by window: its time column, the order of a step's rows, the rows per step,
 * and the meta keys of the span (ms, end exclusive) whose rows were rewritten in order. Each step
 * holds the writer lane (and so the commits queued behind it) for its whole run: steps of 183,000
 * raw points took 68–242 ms on 2 cores at load 10 (bench/README.md "Raw compaction"); a step of
 * minute rows (15 columns to 3) moves about as many bytes, and is the block of series that lies
 * together. Each table keeps its own span: their retentions differ (raw 90 days, minute 400), and
 * a store whose raw points were compacted before minute rows were gets its minute rows compacted
 * at the next run.
 */
interface Compacted {
  table: 'raw' | 'minute';
  time: 'ts' | 'bucket';
  order: string;
  stepRows: number;
  from: string;
  to: string;
}

const TABLES: readonly Compacted[] = [
  {
    table: 'raw',
    time: 'ts',
    order: 'series_id, ts',
    stepRows: 250_000,
    from: 'raw_sorted_from',
    to: 'raw_sorted_to',
  },
  {
    table: 'minute',
    time: 'bucket',
    order: 'bucket, series_id',
    stepRows: 61_440,
    from: 'minute_sorted_from',
    to: 'minute_sorted_to',
  },
];

/** Ranges of consecutive series ids whose rows in a window add up to about `maxRows` each. */
function seriesSteps(counts: readonly (readonly [number, number])[], maxRows: number): [number, number][] {
  const steps: [number, number][] = [];
  let rows = 0;
  for (const [id, n] of counts) {
    const open = steps[steps.length - 1];
    if (open && rows + n <= maxRows) {
      open[1] = id;
      rows += n;
    } else {
      steps.push([id, id]);
      rows = n;
    }
  }
  return steps;
}

/**
 * Rewrites, in raw points then in minute rows, every window closed by `newest` (the newest point
 * stored; for minute rows also by the minute horizon) not rewritten yet, in steps of whole series (a block of series lies together after
 * it), each its own transaction on the writer lane: commits run between steps, and a reader sees
 * each series of a window either all before or all after its rewrite (same rows, another order).
 * Stops between steps once `closed()`.
 */
export async function compact(
  lane: Lane,
  newest: number,
  horizon: number,
  closed: () => boolean,
): Promise<void> {
  for (const t of TABLES) {
    if (closed()) return;
    const until = floorTo(newest - SETTLE_MS, WINDOW);
    // Minute rows exist below the minute horizon only (minutes.ts): a window is closed to them
    // once it lies wholly below it.
    await compactTable(
      lane,
      t,
      t.table === 'minute' ? Math.min(until, floorTo(horizon, WINDOW)) : until,
      closed,
    );
  }
}

/**
 * The windows of one table rewritten are a span kept in `meta`; history written below it later (a
 * backfill) is rewritten on the next call, and rows that come later for a rewritten window are
 * appended as any other. Windows below the span are taken downwards and those above it upwards,
 * so the span stays whole when a run stops between windows (the first run on a large store may
 * take many).
 */
async function compactTable(lane: Lane, t: Compacted, until: number, closed: () => boolean): Promise<void> {
  const span = await lane.run(async (c) => {
    const [keys, values] = await columns(
      c,
      `SELECT key, value FROM meta WHERE key IN ('${t.from}', '${t.to}')`,
    );
    const stored = new Map((keys ?? []).map((k, i) => [String(k), Number(values?.[i])]));
    const [oldest] = await columns(c, `SELECT min(${t.time}) FROM ${t.table}`);
    const first =
      oldest?.[0] === null || oldest?.[0] === undefined ? null : floorTo(Number(oldest[0]), WINDOW);
    return { first, from: stored.get(t.from), to: stored.get(t.to) };
  });
  if (span.first === null) return;
  let from = span.from ?? until;
  let to = span.to ?? until;
  const todo: number[] = [];
  for (let lo = Math.min(from, until) - WINDOW; lo >= span.first; lo -= WINDOW) todo.push(lo);
  for (let lo = Math.max(to, span.first); lo + WINDOW <= until; lo += WINDOW) todo.push(lo);
  for (const lo of todo) {
    if (!(await compactWindow(lane, t, lo, closed))) return;
    // The window's old blocks become free at a checkpoint, and new blocks are taken from the free
    // ones: without a checkpoint per window, a run that rewrites several would grow the file by
    // each one's size.
    await lane.run((c) => c.run('CHECKPOINT'));
    from = Math.min(from, lo);
    to = Math.max(to, lo + WINDOW);
    await lane.run((c) =>
      c.run(`INSERT OR REPLACE INTO meta VALUES ('${t.from}', '${int(from)}'), ('${t.to}', '${int(to)}')`),
    );
  }
}

/** Rewrites one window of a table step by step; false when the store closed before the last step. */
async function compactWindow(lane: Lane, t: Compacted, lo: number, closed: () => boolean): Promise<boolean> {
  const range = `${t.time} >= ${int(lo)} AND ${t.time} < ${int(lo + WINDOW)}`;
  const counts = await lane.run(async (c) => {
    const [ids, ns] = await columns(
      c,
      `SELECT series_id, count(*) FROM ${t.table} WHERE ${range} GROUP BY series_id ORDER BY series_id`,
    );
    return (ids ?? []).map((id, i) => [Number(id), Number(ns?.[i])] as const);
  });
  for (const [a, b] of seriesSteps(counts, t.stepRows)) {
    if (closed()) return false;
    await lane.run(async (c) => {
      const where = `${range} AND series_id BETWEEN ${int(a)} AND ${int(b)}`;
      await c.run('BEGIN TRANSACTION');
      try {
        await c.run(`CREATE OR REPLACE TEMP TABLE sorted AS
          SELECT * FROM ${t.table} WHERE ${where} ORDER BY ${t.order}`);
        await c.run(`DELETE FROM ${t.table} WHERE ${where}`);
        await c.run(`INSERT INTO ${t.table} SELECT * FROM sorted`);
        await c.run('DROP TABLE sorted');
        await c.run('COMMIT');
      } catch (error) {
        await c.run('ROLLBACK');
        throw error;
      }
    });
  }
  return true;
}
