/**
 * Minute, hour and day rollups: recomputed for what a batch touches, inside its transaction
 * (minutes from raw points or from the batch in memory; for in-order batches hours and days from
 * the batch and each series' open hour and day in memory, else hours from minutes and days from
 * hours or minutes on the plant calendar), rebuilt after a time-zone change, and checked on demand.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { HOUR, MINUTE, type PlantCalendar } from '@kilowatch/contract/calendar';
import { ceilTo, floorTo } from '../buckets.ts';
import { incrementSql } from '../counter.ts';
import type { InsertRows, Slices } from './chunks.ts';
import {
  daysOf,
  type Grid,
  HOURS,
  insertRollupRows,
  type OpenRow,
  RollupRows,
  rowsBound,
} from './rollup-rows.ts';
import {
  columns,
  doubleColumns,
  int,
  type Lane,
  RAW_AGGREGATES,
  rollupAggregates,
  scalar,
} from './schema.ts';
import { type Group, lowerBound, type SeriesState, type SeriesTable } from './series.ts';

/** Lookback for the previous sample in minute rollups before falling back to hour rollups. */
const PREV_LOOKBACK = 6 * HOUR;

/**
 * Recomputes the minute, hour and day rollups the groups' points touch (inside the transaction);
 * minute rows computed here go in through `insert`. Returns how many groups' hours and days were
 * computed in JS.
 */
export async function recompute(
  c: DuckDBConnection,
  cal: PlantCalendar,
  groups: readonly Group[],
  slices: Slices,
  insert: InsertRows,
): Promise<number> {
  interface Range {
    st: SeriesState;
    lo: number;
    hi: number;
    prev: { ts: number; value: number } | null | undefined;
    needsNext: boolean;
    js: boolean;
    /** Hours and days computed here, going on from these open rows (none: a fresh bucket). */
    open: { hour: OpenRow | undefined; day: OpenRow | undefined } | null;
    /** Its rows in `minuteRows` when its minutes were computed here. */
    minutes?: { from: number; to: number };
    g: Group;
  }
  const dayGrid = daysOf(cal);
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
    } else if (st.firstTs !== null && maxTs < st.firstTs) {
      // Wholly before the first stored point (history written backwards): computed here too, from
      // the batch and the stored points up to the range's end (storedAfter).
      js = true;
    }
    const open = carriedRows(st, minTs, maxTs, lo, hi, dayGrid);
    return { st, g, lo, hi, prev, js, open, needsNext: st.latestTs !== null && st.latestTs >= hi };
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
    const bounds = late.map(nextMinuteBound);
    const [ids, next] = await columns(
      c,
      `SELECT q.sid, min(m.bucket)::DOUBLE FROM minute m
       JOIN (VALUES ${late.map((r, i) => `(${int(r.st.id)}, ${int(r.hi)}, ${int(bounds[i] as number)})`).join(',')}) q(sid, hi, bound)
         ON m.series_id = q.sid AND m.bucket >= q.hi AND m.bucket <= q.bound
       WHERE m.bucket >= ${int(minHi)} AND m.bucket <= ${int(Math.max(...bounds))} GROUP BY q.sid`,
    );
    const nextBy = new Map<number, number>();
    for (let i = 0; i < (ids?.length ?? 0); i++) nextBy.set(ids?.[i] as number, next?.[i] as number);
    for (const r of late) {
      const nb = nextBy.get(r.st.id);
      if (nb !== undefined) r.hi = nb + MINUTE;
    }
  }

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
    app.appendBoolean(r.open !== null);
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
      GROUP BY s.series_id, bucket ORDER BY bucket, s.series_id`);
  }
  const inJs = ranges.filter((r) => r.js);
  let minuteRows = new RollupRows(0);
  if (inJs.length > 0) {
    const below = inJs.filter(isBelowFirst);
    const after = below.length > 0 ? await storedAfter(c, below) : new Map<number, Samples>();
    const runs = inJs.map((r) => (isBelowFirst(r) ? belowFirstRun(r, after.get(r.st.id)) : inOrderRun(r)));
    minuteRows = await minutesOf(runs, slices);
    runs.forEach((run, i) => {
      (inJs[i] as Range).minutes = run.rows;
    });
    await insertRollupRows(c, 'minute', minuteRows, insert, slices);
  }

  // In-order batches: hours and days from the open rows, the batch's first minute and its
  // later minute rows; the rest from minutes in SQL.
  const carried = ranges.filter((r) => r.open !== null);
  const rows = carried.length > 0 ? await carriedRollups(carried, minuteRows, dayGrid, slices) : null;
  const hLo = floorTo(gLo, HOUR);
  const hHi = ceilTo(gHi, HOUR);
  const deleteHours = `DELETE FROM hour USING aff WHERE hour.series_id = aff.series_id
    AND hour.bucket >= aff.hlo AND hour.bucket < aff.hhi
    AND hour.bucket >= ${int(hLo)} AND hour.bucket < ${int(hHi)}`;
  if (carried.length < ranges.length) {
    // One call for both statements: each call waits for a turn of the event loop to go on.
    await c.run(`${deleteHours};
      INSERT INTO hour
      SELECT m.series_id, m.bucket // ${HOUR} * ${HOUR} AS hb, ${rollupAggregates(`m.bucket % ${HOUR} = 0`)}
      FROM minute m JOIN aff a ON m.series_id = a.series_id AND m.bucket >= a.hlo AND m.bucket < a.hhi AND NOT a.ojs
      WHERE m.bucket >= ${int(hLo)} AND m.bucket < ${int(hHi)}
      GROUP BY m.series_id, hb ORDER BY hb, m.series_id`);
    await recomputeDays(c, cal, dayLo, dayHi);
    await reopenRows(c, ranges, dayGrid);
  } else {
    await c.run(`${deleteHours}; ${deleteDays(dayLo, dayHi)}`);
  }
  if (rows) {
    await insertRollupRows(c, 'hour', rows.hours, insert, slices);
    await insertRollupRows(c, 'day', rows.days, insert, slices);
  }
  return carried.length;
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
  maxTs: number,
  lo: number,
  hi: number,
  dayGrid: Grid,
): { hour: OpenRow | undefined; day: OpenRow | undefined } | null {
  if (st.latestTs !== null && minTs <= st.latestTs) return null;
  // The rows replaced are those of aff's ranges (hours and days of [lo, hi)): the same buckets.
  if (dayGrid.keyOf(lo) !== dayGrid.keyOf(minTs) || dayGrid.keyOf(hi - 1) !== dayGrid.keyOf(maxTs))
    return null;
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
 * Hour and day rows of in-order groups: each from its open row (or fresh), then the group's
 * points in its first minute (the open row holds that minute's stored samples, which its minute
 * row holds too) with the latest stored sample before them, then its later minute rows when they
 * were computed here (else its points). Each group keeps its last rows (`g.hour`, `g.day`), which
 * become the series' open rows once the commit is durable.
 */
async function carriedRollups(
  ranges: readonly {
    st: SeriesState;
    g: Group;
    lo: number;
    open: { hour: OpenRow | undefined; day: OpenRow | undefined } | null;
    minutes?: { from: number; to: number };
  }[],
  minuteRows: RollupRows,
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
  for (const { st, g, lo, open, minutes } of ranges) {
    const prev = st.latestTs === null ? null : { ts: st.latestTs, value: st.latestValue };
    // The minute rows' first is the minute `lo` (the batch's first point is in it).
    const byRows = minutes !== undefined && minuteRows.bucket[minutes.from] === lo;
    const k = byRows ? lowerBound(g.ts, lo + MINUTE) : g.ts.length;
    for (const [rows, open_] of [
      [hours, open?.hour],
      [days, open?.day],
    ] as const) {
      rows.begin(st.id, prev, open_);
      rows.add(g.ts, g.values, 0, k);
      if (byRows) rows.addRows(minuteRows, minutes.from + 1, minutes.to);
    }
    g.hour = hours.rowAt(hours.current);
    g.day = days.rowAt(days.current);
    await slices.pause();
  }
  return { hours, days };
}

/**
 * The latest the next stored minute at or after a late range's end can be: the minute of the first
 * stored point at or after that end, which has a row (every stored point's minute has one). Known
 * for a range below the series' first point (that point's minute), else the latest point's. The
 * lookup then reads the minute rows up to there, not every later one (a history written
 * backwards would scan all it wrote before at each commit).
 */
const nextMinuteBound = (r: { st: SeriesState; hi: number }): number =>
  floorTo(r.st.firstTs !== null && r.st.firstTs >= r.hi ? r.st.firstTs : (r.st.latestTs as number), MINUTE);

/** Deletes the day rows of aff's ranges (aff.dlo..dhi), all within dayLo..dayHi. */
const deleteDays = (dayLo: number, dayHi: number): string =>
  `DELETE FROM day USING aff WHERE day.series_id = aff.series_id
    AND day.bucket >= aff.dlo AND day.bucket < aff.dhi
    AND day.bucket >= ${int(dayLo)} AND day.bucket < ${int(dayHi)}`;

/**
 * Day rows for the days in aff.dlo..dhi: deleted, and those of the ranges not computed in JS
 * (`NOT aff.ojs`) recomputed from hours when local midnights fall on whole hours, else minutes.
 */
async function recomputeDays(
  c: DuckDBConnection,
  cal: PlantCalendar,
  dayLo: number,
  dayHi: number,
): Promise<void> {
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
  await c.run(`${deleteDays(dayLo, dayHi)};
    INSERT INTO day
    SELECT s.series_id, d.day AS db, ${rollupAggregates('s.bucket = d.lo')}
    FROM ${source} s JOIN days d ON s.bucket >= d.lo AND s.bucket < d.hi
    JOIN aff a ON s.series_id = a.series_id AND d.day >= a.dlo AND d.day < a.dhi AND NOT a.ojs
    WHERE s.bucket >= ${int(msLo)} AND s.bucket < ${int(msHi)}
    GROUP BY s.series_id, db ORDER BY db, s.series_id`);
}

/** After a time-zone change: day rows rebuilt wherever hour (or minute) rollups still exist. */
export async function rebuildDays(
  c: DuckDBConnection,
  cal: PlantCalendar,
  table: SeriesTable,
  minuteCut: number,
): Promise<void> {
  const [lo, hi] = await columns(c, 'SELECT min(bucket)::DOUBLE, max(bucket)::DOUBLE FROM minute');
  const min = lo?.[0] as number | null;
  const max = hi?.[0] as number | null;
  if (min === null || max === null || table.byId.size === 0) return;
  // Days whose minutes retention may have cut keep their old alignment.
  const cut = minuteCut;
  const dayLo = min >= cut ? cal.dayOf(min) : cal.dayOf(cut) + 1;
  const dayHi = cal.dayOf(max) + 1;
  if (dayHi <= dayLo) return;
  await c.run('DELETE FROM aff');
  const app = await c.createAppender('aff');
  for (const st of table.byId.values()) {
    app.appendInteger(st.id);
    for (let i = 0; i < 4; i++) app.appendBigInt(0n);
    app.appendInteger(dayLo);
    app.appendInteger(dayHi);
    app.appendNull();
    app.appendNull();
    app.appendBoolean(false);
    app.appendBoolean(false);
    app.endRow();
  }
  app.closeSync();
  await recomputeDays(c, cal, dayLo, dayHi);
}

/**
 * Recomputes every rollup from the level below (minutes from raw points) and counts the rows
 * that differ from the stored ones (relative tolerance 1e-9 on sums: summation order may differ).
 * Minutes before the oldest raw point of a series are skipped (retention removed their points).
 */
export async function checkRollups(
  writer: Lane,
  cal: PlantCalendar,
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
    const minute = await scalar(
      c,
      `WITH s AS (SELECT series_id, ts, value, ts - lag(ts) OVER w AS gap, lag(value) OVER w AS pv
          FROM raw WINDOW w AS (PARTITION BY series_id ORDER BY ts)),
        f AS (SELECT series_id, min(ts) // ${MINUTE} * ${MINUTE} AS fb FROM raw GROUP BY series_id),
        e AS (SELECT series_id, ts // ${MINUTE} * ${MINUTE} AS bucket, ${RAW_AGGREGATES} FROM s GROUP BY ALL),
        x AS (SELECT ${kept} FROM (SELECT * FROM e) ${named('e')})
      SELECT count(*)::DOUBLE FROM x FULL OUTER JOIN minute y ON x.series_id = y.series_id AND x.bucket = y.bucket
      JOIN f ON f.series_id = coalesce(x.series_id, y.series_id)
      WHERE coalesce(x.bucket, y.bucket) > f.fb AND (${diff('x', 'y')})`,
    );
    const hour = await scalar(
      c,
      `WITH x AS (SELECT ${kept} FROM (SELECT series_id, bucket // ${HOUR} * ${HOUR} AS hb, ${rollupAggregates(`bucket % ${HOUR} = 0`)}
          FROM minute GROUP BY series_id, hb) ${named('t')}),
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
              FROM minute m JOIN d ON m.bucket >= d.lo AND m.bucket < d.hi GROUP BY m.series_id, d.day) ${named('t')}),
            y AS (SELECT * FROM day WHERE bucket >= ${d0} AND bucket < ${d1})
          SELECT count(*)::DOUBLE FROM x FULL OUTER JOIN y ON x.series_id = y.series_id AND x.bucket = y.bucket
          WHERE ${diff('x', 'y')}`,
        );
      }
    }
    return { minute, hour, day };
  });
}

/** Last sample strictly before minute-aligned `x` of each series, from minute then hour rollups. */
export async function lastBeforeMinute(
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

/** A range whose minutes are computed here: the group, its minutes [lo, hi), the sample before lo. */
interface JsRange {
  st: SeriesState;
  g: Group;
  lo: number;
  hi: number;
  prev: { ts: number; value: number } | null | undefined;
}

/** Samples `from` … `to - 1` of two parallel arrays. */
interface Part {
  ts: readonly number[];
  values: readonly number[];
  from: number;
  to: number;
}

/** Every sample of a range's minutes [lo, hi), in time order (its parts in turn), and the one before lo. */
interface MinuteRun {
  st: SeriesState;
  parts: readonly Part[];
  prev: { ts: number; value: number } | null;
  /** Its rows in the commit's minute rows, once computed. */
  rows?: { from: number; to: number };
}

const whole = (ts: readonly number[], values: readonly number[]): Part => ({
  ts,
  values,
  from: 0,
  to: ts.length,
});

interface Samples {
  ts: number[];
  values: number[];
}

/** The group was wholly before the series' first stored point (st is the view before the commit). */
const isBelowFirst = (r: JsRange): boolean =>
  r.st.firstTs !== null && (r.g.ts[r.g.ts.length - 1] as number) < r.st.firstTs;

/** An in-order batch: the stored samples of its first minute (in memory), then the batch. */
const inOrderRun = (r: JsRange): MinuteRun => {
  const { recentTs, recentValues } = r.st;
  const head = lowerBound(recentTs, r.lo);
  return {
    st: r.st,
    parts: [
      { ts: recentTs, values: recentValues, from: head, to: recentTs.length },
      whole(r.g.ts, r.g.values),
    ],
    prev: r.prev ?? null,
  };
};

/**
 * A batch below the first stored point: the batch, then the stored samples after it up to hi
 * (storedAfter: those of its last minute and of the next stored minute, whose first sample's
 * increment, inc_edge and gap now start at the batch's last sample).
 */
const belowFirstRun = (r: JsRange, after: Samples | undefined): MinuteRun => ({
  st: r.st,
  parts: after ? [whole(r.g.ts, r.g.values), whole(after.ts, after.values)] : [whole(r.g.ts, r.g.values)],
  prev: r.prev ?? null,
});

/**
 * The raw points of each range after its batch's last point and before `hi`, by series id, in time
 * order. Below the first stored point nothing stored is before that point, so these and the batch
 * are every sample of [lo, hi): the minutes the SQL path would recompute from raw.
 */
async function storedAfter(c: DuckDBConnection, ranges: readonly JsRange[]): Promise<Map<number, Samples>> {
  const lastOf = (r: JsRange) => r.g.ts[r.g.ts.length - 1] as number;
  const lo = Math.min(...ranges.map(lastOf));
  const hi = Math.max(...ranges.map((r) => r.hi));
  const [ids, ts, values] = await doubleColumns(
    c,
    `SELECT r.series_id::DOUBLE, r.ts::DOUBLE, r.value FROM raw r
     JOIN (VALUES ${ranges.map((r) => `(${int(r.st.id)}, ${int(lastOf(r))}, ${int(r.hi)})`).join(',')}) q(sid, after, hi)
       ON r.series_id = q.sid AND r.ts > q.after AND r.ts < q.hi
     WHERE r.ts > ${int(lo)} AND r.ts < ${int(hi)} ORDER BY r.series_id, r.ts`,
  );
  const out = new Map<number, Samples>();
  for (let i = 0; i < (ids?.length ?? 0); i++) {
    const id = ids?.[i] as number;
    let s = out.get(id);
    if (!s) {
      s = { ts: [], values: [] };
      out.set(id, s);
    }
    s.ts.push(ts?.[i] as number);
    s.values.push(values?.[i] as number);
  }
  return out;
}

/**
 * Minute rows computed here from every sample of their range and the sample before it (in-order
 * batches and batches below the first stored point); each run's rows noted in `run.rows`.
 */
async function minutesOf(runs: readonly MinuteRun[], slices: Slices): Promise<RollupRows> {
  let capacity = 0;
  for (const { parts } of runs) {
    let n = 0;
    for (const p of parts) n += p.to - p.from;
    const first = parts.find((p) => p.to > p.from);
    const last = parts.findLast((p) => p.to > p.from);
    if (first && last)
      capacity += rowsBound(n, first.ts[first.from] as number, last.ts[last.to - 1] as number);
  }
  const rows = new RollupRows(capacity);
  for (const r of runs) {
    const from = rows.length;
    rows.begin(r.st.id, r.prev);
    for (const p of r.parts) rows.add(p.ts, p.values, p.from, p.to);
    r.rows = { from, to: rows.length };
    await slices.pause();
  }
  return rows;
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
  await c.run('DELETE FROM days');
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
