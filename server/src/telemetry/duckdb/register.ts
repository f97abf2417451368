/**
 * The summed register of several counters at minute edges (TelemetryStore.summedRegister) from the
 * minute rollups, without reading raw points: at 1-minute readings a month of 50 meters is 2.2 M raw
 * points but 44,641 edges, and the sums over the meters are made inside DuckDB (bench/README.md).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { MINUTE } from '@kilowatch/contract/calendar';
import type { EdgeGrid, SeriesKey, SummedRegister } from '../store.ts';
import { minuteRows } from './minutes.ts';
import { inSnapshot, type ReadContext } from './reader/index.ts';
import { doubleColumns, int } from './schema.ts';
import type { SeriesState } from './series.ts';

/**
 * DuckDB sums increments rounded to 1e-12 of the unit: integers, whose sum is exact (while a minute's
 * increments of all the series stay under 9,000 of the unit), so the order its threads add them in is
 * no matter; a sum of the doubles themselves moves in the last bits from one read to the next. A
 * BIGINT or DECIMAL sum is as exact and cost twice as much (bench/README.md).
 */
const SCALE = 1e12;
const scaled = (x: string) => `round(${x} * ${SCALE})`;

/**
 * E(m) of a counter at a minute edge m is S(m) + c(m): S(m) the increments of its readings stamped
 * at or before m (a minute row's `inc`, less its `inc_edge`, plus the next row's `inc_edge`: the
 * interval-ending minutes of the `delta` reads), and c(m) the share of the next reading's increment
 * where no reading sits on m, by time between the readings around it. A minute row knows the
 * increment and the gap of its first reading when that reading is on its start (`inc_edge`,
 * `max_gap` when above a minute) or is its only one (`inc`, `max_gap`); a series with a row that
 * needs c and knows neither (several readings a minute, off the minute) is left to the caller.
 */
export async function summedRegister(
  ctx: ReadContext,
  series: readonly SeriesKey[],
  edges: EdgeGrid,
  from: number,
  to: number,
): Promise<SummedRegister> {
  const { start, step, count } = edges;
  const values = new Float64Array(Math.max(0, count));
  const states = series.map((s) => ctx.series.get(s.thingId, s.metric));
  const all = series.map((_, i) => i);
  if (count <= 0) return { values, unanswered: [] };
  // Minute rows answer minute edges, and readings read up to a minute edge.
  const aligned = step % MINUTE === 0 && start % MINUTE === 0 && to % MINUTE === 0;
  if (!aligned || !(from <= start && to > start + (count - 1) * step)) return { values, unanswered: all };
  const known = [...new Set(states.filter((st): st is SeriesState => st !== undefined).map((st) => st.id))];
  if (known.length === 0) return { values, unanswered: [] };
  const end = start + (count - 1) * step;
  const lo = int(start);
  const hi = int(end);
  const last = int(to - 1);
  const first = Math.ceil(from);

  return ctx.reader().run((c) =>
    inSnapshot(c, async () => {
      // Minute rows: stored below the horizon, from raw points above it, made once for the three
      // reads below (minutes.ts).
      const made = await minuteRows(c, known, start, to, ctx.horizon.at);
      const minute = to <= ctx.horizon.at ? `(${made})` : 'reg_minute';
      if (minute === 'reg_minute') await c.run(`CREATE OR REPLACE TEMP TABLE reg_minute AS ${made}`);
      try {
        return await sumRegister(c, minute, known, states, all, values, {
          start,
          step,
          end,
          first,
          lo,
          hi,
          last,
        });
      } finally {
        if (minute === 'reg_minute') await c.run('DROP TABLE IF EXISTS reg_minute');
      }
    }),
  );
}

/** summedRegister's reads and sums over the minute rows `minute` (a table or a subquery). */
async function sumRegister(
  c: DuckDBConnection,
  minute: string,
  known: readonly number[],
  states: readonly (SeriesState | undefined)[],
  all: readonly number[],
  values: Float64Array,
  at: { start: number; step: number; end: number; first: number; lo: string; hi: string; last: string },
): Promise<SummedRegister> {
  const { start, step, end, first, lo, hi, last } = at;
  const irregular = await irregularSeries(c, minute, known, lo, hi, last);
  const ids = known.filter((id) => !irregular.has(id)).join(',');
  const unanswered = all.filter((i) => {
    const st = states[i];
    return st !== undefined && irregular.has(st.id);
  });
  if (ids.length === 0) return { values, unanswered };
  // Per minute: the increments of its rows and of the readings on its start, summed over the series.
  const [bi, inc, onStart] = (await doubleColumns(
    c,
    `SELECT ((bucket - ${lo}) // ${MINUTE})::DOUBLE, sum(${scaled('inc')}),
     sum(${scaled('coalesce(inc_edge, 0)')})
   FROM ${minute} WHERE series_id IN (${ids}) AND bucket >= ${lo} AND bucket <= ${hi} GROUP BY bucket`,
  )) as [Float64Array, Float64Array, Float64Array];
  // Readings after a gap that holds an edge (or off the minute): their time, gap and increment,
  // summed over the series that share them (meters read on the same clock share them all).
  const [ts, gap, firstInc] = (await doubleColumns(
    c,
    `SELECT first_ts::DOUBLE AS f, max_gap::DOUBLE AS g,
     sum(${scaled('CASE WHEN first_ts = bucket THEN inc_edge ELSE inc END')})
   FROM ${minute} WHERE series_id IN (${ids}) AND bucket >= ${lo} AND bucket <= ${last}
     AND max_gap IS NOT NULL AND (first_ts <> bucket OR max_gap > ${MINUTE}) AND first_ts - max_gap < ${hi}
   GROUP BY f, g ORDER BY f, g`,
  )) as [Float64Array, Float64Array, Float64Array];

  const minutes = Math.round((end - start) / MINUTE) + 1;
  const rowInc = new Float64Array(minutes);
  const rowStart = new Float64Array(minutes);
  for (let r = 0; r < bi.length; r++) {
    rowInc[bi[r] as number] = inc[r] as number;
    rowStart[bi[r] as number] = onStart[r] as number;
  }
  /** Increments closing at each minute edge (interval-ending), and the shares of c at each. */
  const closing = new Float64Array(minutes);
  for (let m = 1; m < minutes; m++)
    closing[m] = (rowInc[m - 1] as number) - (rowStart[m - 1] as number) + (rowStart[m] as number);
  const share = new Float64Array(minutes);
  for (let r = 0; r < ts.length; r++) {
    const f = ts[r] as number;
    const g = gap[r] as number;
    const x = firstInc[r] as number;
    const prev = f - g;
    if (prev < first) {
      // The counter's first reading in [from, to): its increment from before is not counted and
      // nothing is interpolated before it (its register is flat there).
      const m = Math.ceil((f - start) / MINUTE);
      if (m >= 1 && m < minutes) closing[m] = (closing[m] as number) - x;
      continue;
    }
    const mFrom = Math.max(0, Math.floor((prev - start) / MINUTE) + 1);
    const mTo = Math.min(minutes - 1, Math.ceil((f - start) / MINUTE) - 1);
    for (let m = mFrom; m <= mTo; m++)
      share[m] = (share[m] as number) + (x * (start + m * MINUTE - prev)) / g;
  }
  const stride = step / MINUTE;
  let sum = 0;
  for (let m = 0, i = 0; m < minutes; m++) {
    sum += closing[m] as number;
    if (m % stride === 0) values[i++] = (sum + (share[m] as number)) / SCALE;
  }
  return { values, unanswered };
}

/**
 * Series with a minute row that needs the share of its first reading's increment and does not hold
 * it: several readings in the minute, the first off its start, and a gap before it over an edge.
 */
async function irregularSeries(
  c: DuckDBConnection,
  minute: string,
  ids: readonly number[],
  lo: string,
  hi: string,
  last: string,
): Promise<Set<number>> {
  const [sid] = await doubleColumns(
    c,
    `SELECT DISTINCT series_id::DOUBLE FROM ${minute}
     WHERE series_id IN (${ids.join(',')}) AND bucket >= ${lo} AND bucket <= ${last} AND cnt > 1 AND first_ts <> bucket
       AND (bucket <= ${hi} OR (max_gap > ${MINUTE} AND first_ts - max_gap < ${hi}))`,
  );
  return new Set(sid);
}
