/**
 * Minute rows are stored only below the minute horizon, a whole hour that follows the raw points'
 * retention cut: above it every minute-level answer comes from the raw points, which the store
 * keeps there anyway. A point then costs its raw row and a share of its hour and day rows, where a
 * stored minute row cost 2.5 values a point more at 10 s steps, most of the file and of a commit
 * (docs/telemetry-store.md, "Minute rows below the horizon"). Retention writes the minute rows of
 * the hours it moves the horizon over, from the raw points it is about to drop.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { DAY, HOUR, MINUTE } from '@kilowatch/contract/calendar';
import { floorTo, type Grid, type Resolution } from '../buckets.ts';
import { columns, int, rawAggregates } from './schema.ts';

/** The meta row that holds the horizon (ms). */
export const HORIZON_KEY = 'minute_horizon';

/** The store's minute horizon, shared by its writer, readers and maintenance. */
export interface MinuteHorizon {
  at: number;
}

/**
 * The rows a grid whose coarsest tiling resolution is `coarsest` reads: a grid of minute widths
 * that starts at or above the horizon finds no minute rows there, so it reads the raw points (a
 * minute row only summarises them: the same answers). Across the horizon, `minuteRows`.
 */
export function readResolution(g: Grid, coarsest: Resolution, horizon: MinuteHorizon): Resolution {
  return coarsest === 'minute' && g.kind === 'fixed' && g.base >= horizon.at ? 'raw' : coarsest;
}

/** The rollup tables' column names in order (ROLLUP_COLUMNS). */
const NAMES =
  'series_id, bucket, cnt, vsum, vmin, vmax, vfirst, first_ts, vlast, last_ts, inc, max_gap, min_ts, max_ts, inc_edge';

export type Sample = { ts: number; value: number };

/**
 * The minute rows of the series `ids` (an SQL list) over the whole minutes [lo, hi), as a query
 * with the minute table's columns: the stored rows below the horizon, and above it the rows the
 * raw points make, each series' first step taken from `prev` (its last sample before the raw part,
 * from `lastBefore`), as the writer made them when it stored minute rows.
 */
function minuteRowsSql(
  ids: string,
  lo: number,
  hi: number,
  horizon: number,
  prev: ReadonlyMap<number, Sample>,
): string {
  const parts: string[] = [];
  const split = Math.min(Math.max(lo, horizon), hi);
  if (lo < split) {
    parts.push(`SELECT ${NAMES} FROM minute
      WHERE series_id IN (${ids}) AND bucket >= ${int(lo)} AND bucket < ${int(split)}`);
  }
  if (split < hi) {
    const before = [...prev].map(([id, p]) => `(${int(id)}, ${int(p.ts)}, ${String(p.value)}::DOUBLE)`);
    parts.push(`SELECT * FROM (
      WITH p AS (
        SELECT series_id, ts, value FROM raw WHERE series_id IN (${ids}) AND ts >= ${int(split)} AND ts < ${int(hi)}
        ${before.length > 0 ? `UNION ALL SELECT * FROM (VALUES ${before.join(',')}) v(series_id, ts, value)` : ''}
      ), s AS (
        SELECT series_id, ts, value, ts - lag(ts) OVER w AS gap, lag(value) OVER w AS pv
        FROM p WINDOW w AS (PARTITION BY series_id ORDER BY ts)
      )
      SELECT series_id, ts // ${MINUTE} * ${MINUTE} AS bucket, ${rawAggregates(MINUTE)}
      FROM s WHERE ts >= ${int(split)} GROUP BY series_id, bucket) t(${NAMES})`);
  }
  if (parts.length === 0 || ids === '') return `SELECT ${NAMES} FROM minute WHERE FALSE`;
  return parts.join(' UNION ALL ');
}

/**
 * `minuteRowsSql` with the samples before the raw part looked up first (on the same connection, so
 * in the same snapshot when the caller reads in one).
 */
export async function minuteRows(
  c: DuckDBConnection,
  ids: readonly number[],
  lo: number,
  hi: number,
  horizon: number,
): Promise<string> {
  const split = Math.min(Math.max(lo, horizon), hi);
  const prev =
    split < hi
      ? await lastBefore(
          c,
          ids.map((id) => ({ id, x: split })),
          horizon,
        )
      : new Map<number, Sample>();
  return minuteRowsSql(ids.map(int).join(','), lo, hi, horizon, prev);
}

/** Lookback in hour rows for the last sample before an hour, before reading every earlier one. */
const HOUR_LOOKBACK = 48 * HOUR;

/**
 * Last sample strictly before `x` (any ms) of each series: in x's hour from the raw points (above
 * the horizon) or the minute rows and raw points (below it), else from the hour rows before that
 * hour, which every stored sample's hour has.
 */
export async function lastBefore(
  c: DuckDBConnection,
  pairs: readonly { id: number; x: number }[],
  horizon: number,
): Promise<Map<number, Sample>> {
  const out = new Map<number, Sample>();
  if (pairs.length === 0) return out;
  const read = (cols: unknown[][]) => {
    const [ids, values, ts] = cols;
    for (let i = 0; i < (ids?.length ?? 0); i++) {
      out.set(ids?.[i] as number, { ts: ts?.[i] as number, value: values?.[i] as number });
    }
  };
  const values = (list: readonly { id: number; x: number }[]) =>
    `(VALUES ${list.map((p) => `(${int(p.id)}, ${int(floorTo(p.x, HOUR))}, ${int(floorTo(p.x, MINUTE))}, ${int(p.x)})`).join(',')}) q(sid, hs, xm, x)`;
  const span = (list: readonly { id: number; x: number }[]) => ({
    lo: int(Math.min(...list.map((p) => floorTo(p.x, HOUR)))),
    hi: int(Math.max(...list.map((p) => p.x))),
  });
  const above = pairs.filter((p) => floorTo(p.x, HOUR) >= horizon);
  const below = pairs.filter((p) => floorTo(p.x, HOUR) < horizon);
  if (above.length > 0) {
    const { lo, hi } = span(above);
    read(
      await columns(
        c,
        `SELECT q.sid, arg_max(r.value, r.ts), max(r.ts)::DOUBLE FROM raw r JOIN ${values(above)}
           ON r.series_id = q.sid AND r.ts >= q.hs AND r.ts < q.x
         WHERE r.ts >= ${lo} AND r.ts < ${hi} GROUP BY q.sid`,
      ),
    );
  }
  if (below.length > 0) {
    const { lo, hi } = span(below);
    read(
      await columns(
        c,
        `SELECT sid, arg_max(v, t), max(t)::DOUBLE FROM (
           SELECT q.sid, m.vlast AS v, m.last_ts AS t FROM minute m JOIN ${values(below)}
             ON m.series_id = q.sid AND m.bucket >= q.hs AND m.bucket < q.xm
           WHERE m.bucket >= ${lo} AND m.bucket < ${hi}
           UNION ALL
           SELECT q.sid, r.value, r.ts FROM raw r JOIN ${values(below)}
             ON r.series_id = q.sid AND r.ts >= q.xm AND r.ts < q.x
           WHERE r.ts >= ${lo} AND r.ts < ${hi}) GROUP BY sid`,
      ),
    );
  }
  for (const lookback of [true, false]) {
    const missing = pairs.filter((p) => !out.has(p.id));
    if (missing.length === 0) break;
    const { lo, hi } = span(missing);
    read(
      await columns(
        c,
        `SELECT q.sid, arg_max(h.vlast, h.last_ts), max(h.last_ts)::DOUBLE FROM hour h JOIN ${values(missing)}
           ON h.series_id = q.sid AND h.bucket < q.hs ${lookback ? `AND h.bucket >= q.hs - ${HOUR_LOOKBACK}` : ''}
         WHERE h.bucket < ${hi} ${lookback ? `AND h.bucket >= ${int(Number(lo) - HOUR_LOOKBACK)}` : ''} GROUP BY q.sid`,
      ),
    );
  }
  return out;
}

/**
 * Moves the horizon up to `to` (a whole hour): the minute rows of [horizon, to) from the raw points,
 * minute by minute as commits appended them when they stored minute rows (compact.ts rewrites a
 * window once it lies below the horizon), those before `minuteCut` left out. Raw
 * points are deleted below the old horizon only, one retention run later: a read that took the old
 * horizon before this commit still finds the raw points above it. `to` and `minuteCut` are whole
 * hours. Inside the caller's transaction.
 */
export async function settleMinutes(
  c: DuckDBConnection,
  horizon: number,
  to: number,
  minuteCut: number,
): Promise<void> {
  await c.run(`DELETE FROM raw WHERE ts < ${int(horizon)}`);
  // A day at a time: a store left stopped for weeks catches up without one huge window.
  for (let lo = Math.max(horizon, minuteCut); lo < to; lo += DAY) {
    const hi = Math.min(to, lo + DAY);
    const [ids] = await columns(
      c,
      `SELECT DISTINCT series_id FROM raw WHERE ts >= ${int(lo)} AND ts < ${int(hi)}`,
    );
    const list = (ids ?? []).map(Number);
    if (list.length === 0) continue;
    const sql = await minuteRows(c, list, lo, hi, lo);
    await c.run(`INSERT INTO minute SELECT * FROM (${sql}) ORDER BY bucket, series_id`);
  }
  await c.run(`INSERT OR REPLACE INTO meta VALUES ('${HORIZON_KEY}', '${int(to)}')`);
}
