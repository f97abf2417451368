/**
 * Raw compaction: each closed UTC day of raw points is rewritten once, sorted by series and time.
 * Commits append a series' points in runs of a few hundred, so nearly every 2,048-value group of
 * `ts` holds a jump back in time and DuckDB bit-packs it at ~25 bits; sorted, a day holds runs of
 * thousands of evenly spaced times per series (stored as constant deltas), and the row groups'
 * zone maps on `series_id` let a read of one series skip the others (bench/README.md).
 */
import { DAY, HOUR } from '@kilowatch/contract/calendar';
import { floorTo } from '../buckets.ts';
import { columns, int, type Lane } from './schema.ts';

/** The meta keys of the span of days (ms, end exclusive) whose raw points were rewritten in order. */
const SORTED_FROM = 'raw_sorted_from';
const SORTED_TO = 'raw_sorted_to';

/**
 * A day is rewritten once the newest point stored is this far past its end: late points have
 * mostly come in by then. The newest point, not the clock: history written fast (a backfill)
 * reaches a day after the clock has long passed it.
 */
const SETTLE_MS = HOUR;

/**
 * Rows rewritten per transaction. Each step holds the writer lane (and so the commits queued
 * behind it) for its whole run: 250,000 rows took ~0.2 s on 2 shared cores (bench/README.md).
 */
const STEP_ROWS = 250_000;

/** Ranges of consecutive series ids whose rows in a day add up to about `STEP_ROWS` each. */
export function seriesSteps(counts: readonly (readonly [number, number])[]): [number, number][] {
  const steps: [number, number][] = [];
  let rows = 0;
  for (const [id, n] of counts) {
    const open = steps[steps.length - 1];
    if (open && rows + n <= STEP_ROWS) {
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
 * Rewrites every day closed by `newest` (the newest point stored) not rewritten yet, in steps of whole series, each its own transaction
 * on the writer lane: commits run between steps, and a reader sees each series of a day either
 * all before or all after its rewrite (same rows, another order). The days rewritten are a span
 * kept in `meta`; history written below it later (a backfill) is rewritten on the next call, and
 * points that come later for a rewritten day are appended as any other. Returns the days rewritten.
 */
export async function compactRaw(lane: Lane, newest: number): Promise<number> {
  const until = floorTo(newest - SETTLE_MS, DAY);
  const span = await lane.run(async (c) => {
    const [keys, values] = await columns(
      c,
      `SELECT key, value FROM meta WHERE key IN ('${SORTED_FROM}', '${SORTED_TO}')`,
    );
    const stored = new Map((keys ?? []).map((k, i) => [String(k), Number(values?.[i])]));
    const [oldest] = await columns(c, 'SELECT min(ts) FROM raw');
    const first = oldest?.[0] === null || oldest?.[0] === undefined ? null : floorTo(Number(oldest[0]), DAY);
    return { first, from: stored.get(SORTED_FROM), to: stored.get(SORTED_TO) };
  });
  if (span.first === null) return 0;
  let from = span.from ?? until;
  let to = span.to ?? until;
  const todo: number[] = [];
  for (let day = span.first; day < Math.min(from, until); day += DAY) todo.push(day);
  for (let day = Math.max(to, span.first); day + DAY <= until; day += DAY) todo.push(day);
  for (const day of todo) {
    await compactDay(lane, day);
    // The day's old blocks are free once a checkpoint has dropped its deleted rows (DuckDB reuses
    // them only after the checkpoint that follows): without one per day, every day rewritten
    // in a run would grow the file by its own size.
    await lane.run((c) => c.run('CHECKPOINT'));
    from = Math.min(from, day);
    to = Math.max(to, day + DAY);
    await lane.run((c) =>
      c.run(
        `INSERT OR REPLACE INTO meta VALUES ('${SORTED_FROM}', '${int(from)}'), ('${SORTED_TO}', '${int(to)}')`,
      ),
    );
  }
  return todo.length;
}

async function compactDay(lane: Lane, lo: number): Promise<void> {
  const range = `ts >= ${int(lo)} AND ts < ${int(lo + DAY)}`;
  const counts = await lane.run(async (c) => {
    const [ids, ns] = await columns(
      c,
      `SELECT series_id, count(*) FROM raw WHERE ${range} GROUP BY series_id ORDER BY series_id`,
    );
    return (ids ?? []).map((id, i) => [Number(id), Number(ns?.[i])] as const);
  });
  for (const [a, b] of seriesSteps(counts)) {
    await lane.run(async (c) => {
      const where = `${range} AND series_id BETWEEN ${int(a)} AND ${int(b)}`;
      await c.run('BEGIN TRANSACTION');
      try {
        await c.run(`CREATE OR REPLACE TEMP TABLE sorted AS
          SELECT series_id, ts, value FROM raw WHERE ${where} ORDER BY series_id, ts`);
        await c.run(`DELETE FROM raw WHERE ${where}`);
        await c.run('INSERT INTO raw SELECT series_id, ts, value FROM sorted');
        await c.run('DROP TABLE sorted');
        await c.run('COMMIT');
      } catch (error) {
        await c.run('ROLLBACK');
        throw error;
      }
    });
  }
}
