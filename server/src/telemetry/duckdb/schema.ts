/**
 * The DuckDB store's tables and the few helpers every statement goes through: a connection that
 * runs statements in order (`Lane`), column reads, and integers checked before they enter SQL.
 */
import { BIGINT, DOUBLE, type DuckDBConnection, DuckDBDoubleVector, INTEGER } from '@duckdb/node-api';
import { incrementSql } from '../counter.ts';

/** Rollup tables, finest first. */
const ROLLUPS = ['minute', 'hour', 'day'] as const;

const ROLLUP_COLUMNS =
  'series_id INTEGER, bucket BIGINT, cnt INTEGER, vsum DOUBLE, vmin DOUBLE, vmax DOUBLE, vfirst DOUBLE, first_ts BIGINT, vlast DOUBLE, last_ts BIGINT, inc DOUBLE, max_gap BIGINT, min_ts BIGINT, max_ts BIGINT, inc_edge DOUBLE';

/** Column types of a rollup row, for data chunks appended from JS (ROLLUP_COLUMNS in order). */
export const ROLLUP_TYPES = [
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
  DOUBLE,
];

/**
 * Aggregates of raw samples `s` (columns ts, value, gap, pv) per bucket of `width` ms. `inc` holds
 * the increments of the samples in [b, b + width); `inc_edge` the increment of the sample stamped
 * exactly at b (NULL when there is none): that reading closes the bucket before, so a reader
 * moves it there (interval-ending counters, docs/telemetry-store.md).
 */
export const rawAggregates = (width: number): string =>
  `count(*)::INTEGER, sum(value), min(value), max(value), arg_min(value, ts), min(ts), arg_max(value, ts), max(ts), sum(${incrementSql('pv', 'value')}), max(gap), arg_min(ts, value), arg_max(ts, value), max(${incrementSql('pv', 'value')}) FILTER (WHERE ts % ${width} = 0)`;
/**
 * Aggregates of rollup rows per group: exact combinations of the finer rows. `atStart` is true
 * for the row that starts the group: its `inc_edge` is the group's.
 */
export const rollupAggregates = (atStart: string): string =>
  `sum(cnt)::INTEGER, sum(vsum), min(vmin), max(vmax), arg_min(vfirst, first_ts), min(first_ts), arg_max(vlast, last_ts), max(last_ts), sum(inc), max(max_gap), arg_min(min_ts, vmin), arg_max(max_ts, vmax), max(inc_edge) FILTER (WHERE ${atStart})`;

/** Creates the tables when missing, and the writer connection's scratch tables. */
export async function createSchema(c: DuckDBConnection): Promise<void> {
  await c.run(`CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR)`);
  await c.run(`CREATE TABLE IF NOT EXISTS series (id INTEGER PRIMARY KEY, thing_id INTEGER NOT NULL,
    metric VARCHAR NOT NULL, first_ts BIGINT, interval_ms BIGINT)`);
  await c.run(`CREATE TABLE IF NOT EXISTS raw (series_id INTEGER, ts BIGINT, value DOUBLE)`);
  for (const t of ROLLUPS) await c.run(`CREATE TABLE IF NOT EXISTS ${t} (${ROLLUP_COLUMNS})`);
  // No indexes: an ART index on series_id made hour reads slower here (measured), and costs writes.
  for (const name of Object.keys(SCRATCH) as Scratch[]) await emptyScratch(c, name);
}

/** The writer connection's scratch tables (temporary: in memory, this connection's own). */
const SCRATCH = {
  aff: 'series_id INTEGER, hlo BIGINT, hhi BIGINT, dlo INTEGER, dhi INTEGER, prev_ts BIGINT, prev_value DOUBLE, ojs BOOLEAN',
  dup: 'series_id INTEGER, ts BIGINT',
  days: 'day INTEGER, lo BIGINT, hi BIGINT',
};
type Scratch = keyof typeof SCRATCH;

/**
 * Empties a scratch table by creating it anew: DuckDB keeps the memory of rows deleted from a
 * temporary table (duckdb/duckdb#9033; a DELETE and 2,000 rows appended per commit held 168 KB
 * more each time, the soak's server 673 MB after 15 minutes), and a table replaced frees it.
 */
export function emptyScratch(c: DuckDBConnection, name: Scratch): Promise<unknown> {
  return c.run(`CREATE OR REPLACE TEMP TABLE ${name} (${SCRATCH[name]})`);
}

export const int = (n: number): string => {
  if (!Number.isSafeInteger(n)) throw new RangeError(`not an integer: ${n}`);
  return String(n);
};

/** A connection whose statements run one at a time, in order. */
export class Lane {
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

export async function columns(conn: DuckDBConnection, sql: string): Promise<unknown[][]> {
  const reader = await conn.runAndReadAll(sql);
  return reader.getColumns() as unknown[][];
}

/**
 * The columns of a result whose every column is a DOUBLE that is never NULL (write NULL as NaN
 * in the SQL), copied out chunk by chunk as typed arrays: no value-by-value conversion, which
 * costs more than the query itself on a hundred thousand rows.
 */
export async function doubleColumns(conn: DuckDBConnection, sql: string): Promise<Float64Array[]> {
  const result = await conn.run(sql);
  const rows = Number(result.rowCount);
  const out = Array.from({ length: result.columnCount }, () => new Float64Array(rows));
  let at = 0;
  for (let i = 0; i < result.chunkCount; i++) {
    const chunk = result.getChunk(i);
    out.forEach((column, c) => {
      const vector = chunk.getColumnVector(c);
      if (!(vector instanceof DuckDBDoubleVector)) throw new TypeError(`column ${c} is not a DOUBLE`);
      // The vector's own Float64Array over DuckDB's memory (not in node-api's typings); item by
      // item if a release ever keeps it elsewhere.
      const items = (vector as unknown as { items?: unknown }).items;
      if (items instanceof Float64Array && items.length === chunk.rowCount) column.set(items, at);
      else for (let r = 0; r < chunk.rowCount; r++) column[at + r] = vector.getItem(r) ?? Number.NaN;
    });
    at += chunk.rowCount;
  }
  return out;
}

export async function scalar(conn: DuckDBConnection, sql: string): Promise<number> {
  const [col] = await columns(conn, sql);
  return Number(col?.[0] ?? 0);
}
