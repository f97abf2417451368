import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';

const base = process.env.TEST_DATABASE_URL;

describe.skipIf(!base)('the PostgreSQL dialect', () => {
  const other = `kw_other_${randomBytes(6).toString('hex')}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  let t: TestApp;
  beforeAll(async () => {
    await admin(`create schema ${other}; create table ${other}.users (id integer primary key)`);
    t = await buildTestApp('postgres');
  });
  afterAll(async () => {
    await t?.close();
    await admin(`drop schema if exists ${other} cascade`);
  });

  // The migrator asks the introspector on every start; listing other schemas failed a start
  // whenever one of them was dropped meanwhile ('schema "…" does not exist').
  it("sees only its own schema's tables, its migration bookkeeping on request", async () => {
    const { db } = t.app.db;
    const tables = await db.introspection.getTables();
    const schemas = new Set(tables.map((table) => table.schema));
    expect(schemas.size).toBe(1);
    expect(schemas.has(other)).toBe(false);
    const users = tables.find((table) => table.name === 'users');
    expect(users?.columns.find((column) => column.name === 'id')).toMatchObject({
      isNullable: false,
      isAutoIncrementing: true,
    });
    expect(tables.some((table) => table.name.startsWith('kysely_migration'))).toBe(false);
    const all = await db.introspection.getTables({ withInternalKyselyTables: true });
    expect(all.map((table) => table.name)).toEqual(expect.arrayContaining(['kysely_migration']));
  });

  it('migrates while another schema of the database is dropped', async () => {
    const doomed = `kw_doomed_${randomBytes(6).toString('hex')}`;
    await admin(`create schema ${doomed}; create table ${doomed}.t (id integer)`);
    const [second] = await Promise.all([buildTestApp('postgres'), admin(`drop schema ${doomed} cascade`)]);
    await second.close();
  });
});
