/**
 * Hour and day rollups: recomputed for what a batch touches, inside its transaction (for in-order
 * batches from the batch and each series' open hour and day in memory, else hours from raw points
 * and days from hours, or from minutes on a calendar whose midnights are not on whole hours),
 * rebuilt after a time-zone change, and checked on demand. Minute rows are not written here: above
 * the minute horizon, which every write is, they come from raw points (minutes.ts).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { HOUR, MINUTE, type PlantCalendar } from '@kilowatch/contract/calendar';
import { ceilTo, floorTo } from '../buckets.ts';
import { incrementSql } from '../counter.ts';
import type { InsertRows, Slices } from './chunks.ts';
import { lastBefore, minuteRows, type Sample } from './minutes.ts';
import {
  daysOf,
  type Grid,
  HOURS,
  insertRollupRows,
  type OpenRow,
  RollupRows,
  rowsBound,
} from './rollup-rows.ts';
import { columns, emptyScratch, int, type Lane, rawAggregates, rollupAggregates, scalar } from './schema.ts';
import type { Group, SeriesState, SeriesTable } from './series.ts';

/** What a commit's recompute() did: the rows it computed in JS, and the series it recomputed in SQL. */
export interface Recomputed {
  hours: RollupRows | null;
  days: RollupRows | null;
  inSql: number[];
}

/**
 * Recomputes the hour and day rollups the groups' points touch (inside the transaction); every
 * point is at or above the minute horizon `horizon`.
 */
export async function recompute(
  c: DuckDBConnection,
  cal: PlantCalendar,
  groups: readonly Group[],
  slices: Slices,
  insert: InsertRows,
  horizon: number,
): Promise<Recomputed> {
  interface Range {
    st: SeriesState;
    g: Group;
    /** The whole hours recomputed, and the plant days [dlo, dhi). */
    lo: number;
    hi: number;
    dlo: number;
    dhi: number;
    /** The sample before `lo` (SQL path only; undefined until looked up). */
    prev: Sample | null | undefined;
    /** Hours and days computed here, going on from these open rows (none: a fresh bucket). */
    open: { hour: OpenRow | undefined; day: OpenRow | undefined } | null;
    /**
     * For a group wholly below the series' first stored point (history written backwards): how
     * many of its points lie below that point's hour. Their hours hold only the group's points.
     */
    below: number;
  }
  const dayGrid = daysOf(cal);
  const ranges: Range[] = groups.map((g) => {
    const st = g.st;
    const minTs = g.ts[0] as number;
    const maxTs = g.ts[g.ts.length - 1] as number;
    const lo = floorTo(minTs, HOUR);
    const hi = floorTo(maxTs, HOUR) + HOUR;
    // Below the series' first stored point (history written backwards) nothing is stored before
    // the batch. That first point is not one retention deleted: it is above the writable floor.
    const underFirst = st.firstTs !== null && maxTs < st.firstTs;
    const prev =
      st.latestTs === null || underFirst
        ? null
        : st.latestTs < lo
          ? { ts: st.latestTs, value: st.latestValue }
          : undefined;
    const open = carriedRows(st, minTs, dayGrid);
    let below = 0;
    if (underFirst) {
      const firstHour = floorTo(st.firstTs as number, HOUR);
      while (below < g.ts.length && (g.ts[below] as number) < firstHour) below++;
    }
    return { st, g, lo, hi, dlo: cal.dayOf(minTs), dhi: cal.dayOf(maxTs) + 1, prev, open, below };
  });
  const inSql = ranges.filter((r) => r.open === null);
  // Hours below the first point's hour are made in JS from the group's points alone; what SQL
  // recomputes of such a range is the first point's hour (with the group's points in it), its
  // first step from the group's last point below it.
  const below = inSql.filter((r) => r.below > 0);
  const belowHours = below.length > 0 ? await groupHours(below, slices) : null;
  for (const r of below) {
    r.prev = { ts: r.g.ts[r.below - 1] as number, value: r.g.values[r.below - 1] as number };
    r.lo = floorTo(r.st.firstTs as number, HOUR);
    r.hi = r.lo + HOUR;
  }
  const unknown = inSql.filter((r) => r.prev === undefined);
  if (unknown.length > 0) {
    const found = await lastBefore(
      c,
      unknown.map((r) => ({ id: r.st.id, x: r.lo })),
      horizon,
    );
    for (const r of unknown) r.prev = found.get(r.st.id) ?? null;
  }
  // A late point changes the next hour with data too (its first step starts at the late point).
  // Below the first stored point that hour is the first point's; else it is looked up.
  const late: Range[] = [];
  for (const r of inSql) {
    if (r.below > 0 || r.st.latestTs === null || r.st.latestTs < r.hi) continue;
    if (r.st.firstTs !== null && r.st.firstTs >= r.hi) r.hi = floorTo(r.st.firstTs, HOUR) + HOUR;
    else late.push(r);
  }
  if (late.length > 0) {
    const minHi = Math.min(...late.map((r) => r.hi));
    const bounds = late.map(nextHourBound);
    const [ids, next] = await columns(
      c,
      `SELECT q.sid, min(h.bucket)::DOUBLE FROM hour h
       JOIN (VALUES ${late.map((r, i) => `(${int(r.st.id)}, ${int(r.hi)}, ${int(bounds[i] as number)})`).join(',')}) q(sid, hi, bound)
         ON h.series_id = q.sid AND h.bucket >= q.hi AND h.bucket <= q.bound
       WHERE h.bucket >= ${int(minHi)} AND h.bucket <= ${int(Math.max(...bounds))} GROUP BY q.sid`,
    );
    const nextBy = new Map<number, number>();
    for (let i = 0; i < (ids?.length ?? 0); i++) nextBy.set(ids?.[i] as number, next?.[i] as number);
    for (const r of late) {
      const nb = nextBy.get(r.st.id);
      if (nb !== undefined) r.hi = nb + HOUR;
    }
  }
  for (const r of inSql) r.dhi = Math.max(r.dhi, cal.dayOf(r.hi - 1) + 1);

  let hLo = Number.POSITIVE_INFINITY;
  let hHi = Number.NEGATIVE_INFINITY;
  let dayLo = Number.POSITIVE_INFINITY;
  let dayHi = Number.NEGATIVE_INFINITY;
  await emptyScratch(c, 'aff');
  const app = await c.createAppender('aff');
  for (const r of ranges) {
    app.appendInteger(r.st.id);
    app.appendBigInt(BigInt(r.lo));
    app.appendBigInt(BigInt(r.hi));
    app.appendInteger(r.dlo);
    app.appendInteger(r.dhi);
    if (r.prev) {
      app.appendBigInt(BigInt(r.prev.ts));
      app.appendDouble(r.prev.value);
    } else {
      app.appendNull();
      app.appendNull();
    }
    app.appendBoolean(r.open !== null);
    app.endRow();
    hLo = Math.min(hLo, r.lo);
    hHi = Math.max(hHi, r.hi);
    dayLo = Math.min(dayLo, r.dlo);
    dayHi = Math.max(dayHi, r.dhi);
  }
  app.closeSync();

  // In-order batches: hours and days from the open rows and the batch's points; the rest in SQL.
  const carried = ranges.filter((r) => r.open !== null);
  const rows = carried.length > 0 ? await carriedRollups(carried, dayGrid, slices) : null;
  const deleteHours = `DELETE FROM hour USING aff WHERE hour.series_id = aff.series_id
    AND hour.bucket >= aff.hlo AND hour.bucket < aff.hhi
    AND hour.bucket >= ${int(hLo)} AND hour.bucket < ${int(hHi)}`;
  if (inSql.length > 0) {
    const sLo = Math.min(...inSql.map((r) => r.lo));
    const sHi = Math.max(...inSql.map((r) => r.hi));
    // Hours from raw points; the previous sample gives the first step (increment and gap). One
    // call for both statements: each call waits for a turn of the event loop to go on.
    await c.run(`${deleteHours};
      INSERT INTO hour
      WITH p AS (
        SELECT r.series_id, r.ts, r.value FROM raw r JOIN aff a
          ON r.series_id = a.series_id AND r.ts >= a.hlo AND r.ts < a.hhi AND NOT a.ojs
        WHERE r.ts >= ${int(sLo)} AND r.ts < ${int(sHi)}
        UNION ALL SELECT series_id, prev_ts, prev_value FROM aff WHERE prev_ts IS NOT NULL AND NOT ojs
      ), s AS (
        SELECT series_id, ts, value, ts - lag(ts) OVER w AS gap, lag(value) OVER w AS pv
        FROM p WINDOW w AS (PARTITION BY series_id ORDER BY ts)
      )
      SELECT s.series_id, s.ts // ${HOUR} * ${HOUR} AS bucket, ${rawAggregates(HOUR)}
      FROM s JOIN aff a ON s.series_id = a.series_id AND NOT a.ojs WHERE s.ts >= a.hlo
      GROUP BY s.series_id, bucket ORDER BY bucket, s.series_id`);
    // Before the days: they are summed from the hour rows.
    if (belowHours) await insertRollupRows(c, 'hour', belowHours, insert, slices);
    await recomputeDays(
      c,
      cal,
      dayLo,
      dayHi,
      inSql.map((r) => r.st.id),
      horizon,
    );
    await reopenRows(c, ranges, dayGrid);
  } else {
    await c.run(`${deleteHours}; ${deleteDays(dayLo, dayHi)}`);
  }
  if (rows) {
    await insertRollupRows(c, 'hour', rows.hours, insert, slices);
    await insertRollupRows(c, 'day', rows.days, insert, slices);
  }
  return { hours: rows?.hours ?? null, days: rows?.days ?? null, inSql: inSql.map((r) => r.st.id) };
}

/**
 * The open rows of the series whose rollups went through SQL, for their next commits: read back
 * where the rows recomputed hold the hour or day of the series' newest sample, else those in
 * memory (a late batch or history below them left them as they were).
 */
async function reopenRows(
  c: DuckDBConnection,
  ranges: readonly { st: SeriesState; g: Group; lo: number; hi: number; open: unknown }[],
  dayGrid: Grid,
): Promise<void> {
  const touched: { id: number; hour: number; day: number; g: Group }[] = [];
  for (const r of ranges) {
    if (r.open !== null) continue;
    const newest = Math.max(r.st.latestTs ?? Number.NEGATIVE_INFINITY, r.g.ts[r.g.ts.length - 1] as number);
    const hour = floorTo(newest, HOUR);
    const day = dayGrid.keyOf(newest);
    if (
      (hour >= floorTo(r.lo, HOUR) && hour < ceilTo(r.hi, HOUR)) ||
      (day >= dayGrid.keyOf(r.lo) && day <= dayGrid.keyOf(r.hi - 1))
    ) {
      touched.push({ id: r.st.id, hour, day, g: r.g });
    } else {
      r.g.hour = r.st.openHour;
      r.g.day = r.st.openDay;
    }
  }
  if (touched.length === 0) return;
  const q = `(VALUES ${touched.map((x) => `(${int(x.id)}, ${int(x.hour)}, ${int(x.day)})`).join(',')}) q(sid, hb, db)`;
  const bounds = (key: (x: (typeof touched)[number]) => number, column: string) =>
    `r.${column} >= ${int(Math.min(...touched.map(key)))} AND r.${column} <= ${int(Math.max(...touched.map(key)))}`;
  const byId = new Map(touched.map((x) => [x.id, x.g]));
  for (const { id, row } of await readOpenRows(
    c,
    `hour r JOIN ${q} ON r.series_id = q.sid AND r.bucket = q.hb`,
    bounds((x) => x.hour, 'bucket'),
  )) {
    const g = byId.get(id);
    if (g) g.hour = row;
  }
  for (const { id, row } of await readOpenRows(
    c,
    `day r JOIN ${q} ON r.series_id = q.sid AND r.bucket = q.db`,
    bounds((x) => x.day, 'bucket'),
  )) {
    const g = byId.get(id);
    if (g) g.day = row;
  }
}

/** Rollup rows (of the table aliased `r` in `from`) where `where` holds, as OpenRows by series id. */
async function readOpenRows(
  c: DuckDBConnection,
  from: string,
  where: string,
): Promise<{ id: number; row: OpenRow }[]> {
  const [ids, keys, cnt, sum, min, max, first, firstTs, last, lastTs, inc, maxGap, minTs, maxTs, edge] =
    (await columns(
      c,
      `SELECT r.series_id, r.bucket::DOUBLE, r.cnt, r.vsum, r.vmin, r.vmax, r.vfirst, r.first_ts::DOUBLE,
         r.vlast, r.last_ts::DOUBLE, r.inc, r.max_gap::DOUBLE, r.min_ts::DOUBLE, r.max_ts::DOUBLE, r.inc_edge
       FROM ${from} WHERE ${where}`,
    )) as (number | null)[][];
  return Array.from({ length: ids?.length ?? 0 }, (_, i) => ({
    id: ids?.[i] as number,
    row: {
      key: keys?.[i] as number,
      cnt: cnt?.[i] as number,
      sum: sum?.[i] as number,
      min: min?.[i] as number,
      max: max?.[i] as number,
      first: first?.[i] as number,
      firstTs: firstTs?.[i] as number,
      last: last?.[i] as number,
      lastTs: lastTs?.[i] as number,
      inc: inc?.[i] as number,
      maxGap: maxGap?.[i] ?? null,
      minTs: minTs?.[i] as number,
      maxTs: maxTs?.[i] as number,
      edge: edge?.[i] ?? null,
    },
  }));
}

/**
 * The open rows an in-order group's hours and days go on from: per level, the row of the bucket
 * its first point is in when the series' latest stored sample is in that bucket too (`undefined`
 * when no stored sample is: a fresh row). Null when that row is not in memory (the series' first
 * commit since open, a failed commit), or the group is not in order: its rollups then come from
 * minutes in SQL (and reopenRows() reads its open rows back).
 */
function carriedRows(
  st: SeriesState,
  minTs: number,
  dayGrid: Grid,
): { hour: OpenRow | undefined; day: OpenRow | undefined } | null {
  if (st.latestTs !== null && minTs <= st.latestTs) return null;
  const hour = openRow(st.latestTs, minTs, HOURS, st.openHour);
  const day = openRow(st.latestTs, minTs, dayGrid, st.openDay);
  return hour === null || day === null ? null : { hour, day };
}

const openRow = (
  latestTs: number | null,
  minTs: number,
  grid: Grid,
  open: OpenRow | undefined,
): OpenRow | undefined | null => {
  const key = grid.keyOf(minTs);
  if (latestTs === null || latestTs < grid.startOf(key)) return undefined;
  return open?.key === key ? open : null;
};

/**
 * Hour rows of the `below` first points of groups below their series' first point's hour: those
 * hours hold no stored point and none is stored before them, so the points alone make them.
 */
async function groupHours(
  ranges: readonly { st: SeriesState; g: Group; below: number }[],
  slices: Slices,
): Promise<RollupRows> {
  let cap = 0;
  for (const { g, below } of ranges)
    cap += rowsBound(below, g.ts[0] as number, g.ts[below - 1] as number, HOURS);
  const hours = new RollupRows(cap, HOURS);
  for (const { st, g, below } of ranges) {
    hours.begin(st.id, null);
    hours.add(g.ts, g.values, 0, below);
    await slices.pause();
  }
  return hours;
}

/**
 * Hour and day rows of in-order groups: each from its open row (or fresh), then the group's points
 * with the latest stored sample before them. Each group keeps its last rows (`g.hour`, `g.day`),
 * which become the series' open rows once the commit is durable.
 */
async function carriedRollups(
  ranges: readonly {
    st: SeriesState;
    g: Group;
    open: { hour: OpenRow | undefined; day: OpenRow | undefined } | null;
  }[],
  dayGrid: Grid,
  slices: Slices,
): Promise<{ hours: RollupRows; days: RollupRows }> {
  let hourCap = 0;
  let dayCap = 0;
  for (const { g } of ranges) {
    const first = g.ts[0] as number;
    const last = g.ts[g.ts.length - 1] as number;
    hourCap += rowsBound(g.ts.length, first, last, HOURS);
    dayCap += rowsBound(g.ts.length, first, last, dayGrid);
  }
  const hours = new RollupRows(hourCap, HOURS);
  const days = new RollupRows(dayCap, dayGrid);
  for (const { st, g, open } of ranges) {
    const prev = st.latestTs === null ? null : { ts: st.latestTs, value: st.latestValue };
    hours.begin(st.id, prev, open?.hour);
    hours.add(g.ts, g.values, 0, g.ts.length);
    days.begin(st.id, prev, open?.day);
    days.add(g.ts, g.values, 0, g.ts.length);
    g.hour = hours.rowAt(hours.current);
    g.day = days.rowAt(days.current);
    await slices.pause();
  }
  return { hours, days };
}

/**
 * The latest the next stored hour at or after a late range's end can be: the latest point's (every
 * stored point's hour has a row). The lookup then reads the hour rows up to there, not every later
 * one. (Below the first point no lookup is made: that point's hour is the next.)
 */
const nextHourBound = (r: { st: SeriesState }): number => floorTo(r.st.latestTs as number, HOUR);

/** Deletes the day rows of aff's ranges (aff.dlo..dhi), all within dayLo..dayHi. */
const deleteDays = (dayLo: number, dayHi: number): string =>
  `DELETE FROM day USING aff WHERE day.series_id = aff.series_id
    AND day.bucket >= aff.dlo AND day.bucket < aff.dhi
    AND day.bucket >= ${int(dayLo)} AND day.bucket < ${int(dayHi)}`;

/**
 * Day rows for the days in aff.dlo..dhi: deleted, and those of the ranges not computed in JS
 * (`NOT aff.ojs`, series `ids`) recomputed from hours when local midnights fall on whole hours,
 * else from minute rows (below the horizon) and raw points (minutes.ts).
 */
async function recomputeDays(
  c: DuckDBConnection,
  cal: PlantCalendar,
  dayLo: number,
  dayHi: number,
  ids: readonly number[],
  horizon: number,
): Promise<void> {
  await emptyScratch(c, 'days');
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
  const msLo = cal.dayStart(dayLo);
  const msHi = cal.dayStart(dayHi);
  const source = hourAligned ? 'hour' : `(${await minuteRows(c, ids, msLo, msHi, horizon)})`;
  await c.run(`${deleteDays(dayLo, dayHi)};
    INSERT INTO day
    SELECT s.series_id, d.day AS db, ${rollupAggregates('s.bucket = d.lo')}
    FROM ${source} s JOIN days d ON s.bucket >= d.lo AND s.bucket < d.hi
    JOIN aff a ON s.series_id = a.series_id AND d.day >= a.dlo AND d.day < a.dhi AND NOT a.ojs
    WHERE s.bucket >= ${int(msLo)} AND s.bucket < ${int(msHi)}
    GROUP BY s.series_id, db ORDER BY db, s.series_id`);
}

/** After a time-zone change: day rows rebuilt wherever minute rows or raw points still exist. */
export async function rebuildDays(
  c: DuckDBConnection,
  cal: PlantCalendar,
  table: SeriesTable,
  minuteCut: number,
  horizon: number,
): Promise<void> {
  const [min, max] = await minuteSpan(c, horizon);
  if (min === null || max === null || table.byId.size === 0) return;
  // Days whose minutes retention may have cut keep their old alignment.
  const cut = minuteCut;
  const dayLo = min >= cut ? cal.dayOf(min) : cal.dayOf(cut) + 1;
  const dayHi = cal.dayOf(max) + 1;
  if (dayHi <= dayLo) return;
  await emptyScratch(c, 'aff');
  const app = await c.createAppender('aff');
  for (const st of table.byId.values()) {
    app.appendInteger(st.id);
    for (let i = 0; i < 2; i++) app.appendBigInt(0n);
    app.appendInteger(dayLo);
    app.appendInteger(dayHi);
    app.appendNull();
    app.appendNull();
    app.appendBoolean(false);
    app.endRow();
  }
  app.closeSync();
  await recomputeDays(c, cal, dayLo, dayHi, [...table.byId.keys()], horizon);
}

/** The first and last minute with a minute row (below the horizon) or a raw point (above it). */
async function minuteSpan(c: DuckDBConnection, horizon: number): Promise<[number | null, number | null]> {
  const [lo, hi] = await columns(
    c,
    `SELECT min(b)::DOUBLE, max(b)::DOUBLE FROM (
       SELECT min(bucket) AS b FROM minute WHERE bucket < ${int(horizon)}
       UNION ALL SELECT max(bucket) FROM minute WHERE bucket < ${int(horizon)}
       UNION ALL SELECT min(ts) // ${MINUTE} * ${MINUTE} FROM raw WHERE ts >= ${int(horizon)}
       UNION ALL SELECT max(ts) // ${MINUTE} * ${MINUTE} FROM raw WHERE ts >= ${int(horizon)})`,
  );
  return [(lo?.[0] as number | null) ?? null, (hi?.[0] as number | null) ?? null];
}

/**
 * Recomputes the hour and day rollups from minutes (stored below the horizon, from raw points
 * above it) and counts the rows that differ from the stored ones (relative tolerance 1e-9 on sums:
 * summation order may differ), with the minute rows above the horizon, which must not exist. The
 * first hour of each series' minutes is skipped (retention may have cut it).
 */
export async function checkRollups(
  writer: Lane,
  cal: PlantCalendar,
  horizon: number,
): Promise<{ minute: number; hour: number; day: number }> {
  const diff = (a: string, b: string) =>
    `${a}.cnt IS DISTINCT FROM ${b}.cnt OR ${a}.first_ts IS DISTINCT FROM ${b}.first_ts OR ${a}.last_ts IS DISTINCT FROM ${b}.last_ts
     OR ${a}.vmin IS DISTINCT FROM ${b}.vmin OR ${a}.vmax IS DISTINCT FROM ${b}.vmax OR ${a}.vfirst IS DISTINCT FROM ${b}.vfirst
     OR ${a}.vlast IS DISTINCT FROM ${b}.vlast OR coalesce(${a}.max_gap, 0) IS DISTINCT FROM coalesce(${b}.max_gap, 0)
     OR ${a}.vsum IS NULL OR ${b}.vsum IS NULL OR abs(${a}.vsum - ${b}.vsum) > 1e-9 * greatest(1, abs(${a}.vsum))
     OR abs(${a}.inc - ${b}.inc) > 1e-9 * greatest(1, abs(${a}.inc))
     OR (${a}.inc_edge IS NULL) <> (${b}.inc_edge IS NULL) OR abs(${a}.inc_edge - ${b}.inc_edge) > 1e-9 * greatest(1, abs(${a}.inc_edge))`;
  const cols = 'series_id, bucket, cnt, vsum, vmin, vmax, vfirst, first_ts, vlast, last_ts, inc, max_gap';
  const named = (t: string) => `${t}(${cols}, min_ts, max_ts, inc_edge)`;
  const kept = `${cols}, inc_edge`;
  return writer.run(async (c) => {
    // Minute rows above the horizon are never written: any there is a difference.
    const minute = await scalar(c, `SELECT count(*)::DOUBLE FROM minute WHERE bucket >= ${int(horizon)}`);
    const [min, max] = await minuteSpan(c, horizon);
    if (min === null || max === null) return { minute, hour: 0, day: 0 };
    const [ids] = await columns(c, 'SELECT id FROM series');
    await c.run(
      `CREATE OR REPLACE TEMP TABLE chk_m AS ${await minuteRows(c, (ids ?? []).map(Number), min, max + MINUTE, horizon)}`,
    );
    const hour = await scalar(
      c,
      `WITH x AS (SELECT ${kept} FROM (SELECT series_id, bucket // ${HOUR} * ${HOUR} AS hb, ${rollupAggregates(`bucket % ${HOUR} = 0`)}
          FROM chk_m GROUP BY series_id, hb) ${named('t')}),
        f AS (SELECT series_id, min(bucket) // ${HOUR} * ${HOUR} AS fb FROM chk_m GROUP BY series_id)
      SELECT count(*)::DOUBLE FROM x FULL OUTER JOIN hour y ON x.series_id = y.series_id AND x.bucket = y.bucket
      JOIN f ON f.series_id = coalesce(x.series_id, y.series_id)
      WHERE coalesce(x.bucket, y.bucket) > f.fb AND (${diff('x', 'y')})`,
    );
    // Days: compare over the days fully covered by minute rows.
    let day = 0;
    {
      const d0 = cal.dayOf(min) + 1;
      const d1 = cal.dayOf(max) + 1;
      if (d1 > d0) {
        const values: string[] = [];
        for (let d = d0; d < d1; d++)
          values.push(`(${d}, ${int(cal.dayStart(d))}, ${int(cal.dayStart(d + 1))})`);
        day = await scalar(
          c,
          `WITH d(day, lo, hi) AS (VALUES ${values.join(',')}),
            x AS (SELECT ${kept} FROM (SELECT m.series_id, d.day, ${rollupAggregates('m.bucket = d.lo')}
              FROM chk_m m JOIN d ON m.bucket >= d.lo AND m.bucket < d.hi GROUP BY m.series_id, d.day) ${named('t')}),
            y AS (SELECT * FROM day WHERE bucket >= ${d0} AND bucket < ${d1})
          SELECT count(*)::DOUBLE FROM x FULL OUTER JOIN y ON x.series_id = y.series_id AND x.bucket = y.bucket
          WHERE ${diff('x', 'y')}`,
        );
      }
    }
    await c.run('DROP TABLE chk_m');
    return { minute, hour, day };
  });
}

/** The meta row that says the rollups hold `inc_edge` (interval-ending counters). */
export const COUNTER_CONVENTION = { key: 'counters', value: 'interval-ending' } as const;

/**
 * Rollups written before the interval-ending convention have no `inc_edge`: each row gets the
 * increment of the reading stamped exactly on its start, from the row's own first sample and the
 * last sample of the row before it (the same two values the raw points give, so the answer is the
 * one a recomputation from raw points gives, also where retention removed them). The first row of
 * a series at a level takes its predecessor from the coarser levels. Returns the rows per level
 * that hold such a reading.
 */
export async function upgradeCounters(
  c: DuckDBConnection,
  cal: PlantCalendar,
): Promise<{ minute: number; hour: number; day: number }> {
  for (const t of ['minute', 'hour', 'day'] as const) {
    const [has] = await columns(
      c,
      `SELECT count(*)::DOUBLE FROM duckdb_columns() WHERE schema_name = 'main' AND table_name = '${t}' AND column_name = 'inc_edge'`,
    );
    if (Number(has?.[0]) === 0) await c.run(`ALTER TABLE ${t} ADD COLUMN inc_edge DOUBLE`);
  }
  const [lo, hi] = await columns(c, 'SELECT min(bucket)::DOUBLE, max(bucket)::DOUBLE FROM day');
  await emptyScratch(c, 'days');
  if (lo?.[0] !== null && lo?.[0] !== undefined) {
    const app = await c.createAppender('days');
    for (let d = lo[0] as number; d <= (hi?.[0] as number); d++) {
      app.appendInteger(d);
      app.appendBigInt(BigInt(cal.dayStart(d)));
      app.appendBigInt(BigInt(cal.dayStart(d + 1)));
      app.endRow();
    }
    app.closeSync();
  }
  const fill = async (t: 'minute' | 'hour' | 'day', coarser: string[]) => {
    const start = t === 'day' ? 'd.lo' : 'r.bucket';
    const from = t === 'day' ? 'r JOIN days d ON d.day = r.bucket' : 'r';
    const before = coarser.map((k) => `SELECT series_id, last_ts, vlast FROM ${k}`).join(' UNION ALL ');
    const fallback = before
      ? `, f AS (SELECT r.series_id, r.bucket, arg_max(p.vlast, p.last_ts) AS pv
           FROM r JOIN (${before}) p ON p.series_id = r.series_id AND p.last_ts < r.first_ts
           WHERE r.pb IS NULL GROUP BY r.series_id, r.bucket)`
      : ', f AS (SELECT NULL::INTEGER AS series_id, NULL::BIGINT AS bucket, NULL::DOUBLE AS pv WHERE FALSE)';
    await c.run(`UPDATE ${t} SET inc_edge = NULL`);
    await c.run(`UPDATE ${t} SET inc_edge = e.v FROM (
        WITH r AS (SELECT series_id, bucket, first_ts, vfirst,
            lag(vlast) OVER w AS pv, lag(bucket) OVER w AS pb
          FROM ${t} WINDOW w AS (PARTITION BY series_id ORDER BY bucket))${fallback}
        SELECT r.series_id, r.bucket, ${incrementSql('coalesce(r.pv, f.pv)', 'r.vfirst')} AS v
        FROM ${from} LEFT JOIN f ON f.series_id = r.series_id AND f.bucket = r.bucket
        WHERE r.first_ts = ${start}) e
      WHERE ${t}.series_id = e.series_id AND ${t}.bucket = e.bucket`);
    return scalar(c, `SELECT count(inc_edge)::DOUBLE FROM ${t}`);
  };
  return {
    minute: await fill('minute', ['hour', 'day']),
    hour: await fill('hour', ['day']),
    day: await fill('day', []),
  };
}
