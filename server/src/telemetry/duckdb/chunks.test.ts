import { BIGINT, DOUBLE, type DuckDBConnection, DuckDBInstance, INTEGER } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import {
  appendChunks,
  CHUNK,
  type ChunkSource,
  insertChunks,
  int64Words,
  itemsOf,
  registerChunks,
  Slices,
  setInt64,
} from './chunks.ts';

/** Row i is (i, 1.7e12 + i, i / 2). */
const rowsOf = (rows: number, failAt = Number.POSITIVE_INFINITY): ChunkSource => {
  let done = 0;
  return {
    types: [INTEGER, BIGINT, DOUBLE],
    rows,
    fill(out, n) {
      if (done + n > failAt) throw new Error('source failed');
      const id = itemsOf(out.getColumnVector(0), Int32Array);
      const ts = int64Words(out.getColumnVector(1));
      const value = itemsOf(out.getColumnVector(2), Float64Array);
      for (let r = 0; r < n; r++, done++) {
        id[r] = done;
        setInt64(ts, r, 1.7e12 + done);
        value[r] = done / 2;
      }
      for (const k of [0, 1, 2]) out.getColumnVector(k).flush();
    },
  };
};

/**
 * Both ways of handing a source to DuckDB: the table function (registered once per connection,
 * before any transaction) and the appender in slices.
 */
const ways: [string, (c: DuckDBConnection, table: string, source: ChunkSource) => Promise<void>][] = [
  ['insertChunks', (c, table, source) => insertChunks(c, table, source)],
  ['appendChunks', (c, table, source) => appendChunks(c, table, source, new Slices())],
];

describe.each(ways)('%s', (_, put) => {
  it('puts every row of a source over more chunks than a flush takes, in the open transaction', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    registerChunks(c);
    await c.run('CREATE TABLE t (id INTEGER, ts BIGINT, v DOUBLE)');
    const n = 9 * CHUNK + 5;
    await c.run('BEGIN TRANSACTION');
    await put(c, 't', rowsOf(n));
    await put(c, 't', rowsOf(0));
    await c.run('COMMIT');
    const rows = (
      await c.runAndReadAll('SELECT count(*), sum(id), min(ts), max(ts), sum(v) FROM t')
    ).getRows();
    const sum = (n * (n - 1)) / 2;
    expect(rows).toEqual([[BigInt(n), BigInt(sum), BigInt(1.7e12), BigInt(1.7e12 + n - 1), sum / 2]]);
    c.closeSync();
  });

  it('a source that throws fails the call; the rollback leaves no row of it', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    registerChunks(c);
    await c.run('CREATE TABLE t (id INTEGER, ts BIGINT, v DOUBLE)');
    await c.run('BEGIN TRANSACTION');
    await expect(put(c, 't', rowsOf(10 * CHUNK, 9 * CHUNK + 1))).rejects.toThrow(/source failed/);
    await c.run('ROLLBACK');
    await put(c, 't', rowsOf(3));
    const rows = (await c.runAndReadAll('SELECT count(*) FROM t')).getRows();
    expect(rows).toEqual([[3n]]);
    c.closeSync();
  });
});
