import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './index.ts';

const base = process.env.TEST_DATABASE_URL;

// PostgreSQL ends idle connections on a restart, a failover or an administrator's command; the pool
// reports that as an 'error' event, which with no listener is an uncaught exception: the process died.
describe.skipIf(!base)('the PostgreSQL pool', () => {
  it('survives PostgreSQL ending its idle connections, and connects again', async () => {
    const database = openDatabase({ kind: 'postgres', url: base as string });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db);
      const pid = rows[0]?.pid as number;
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query('select pg_terminate_backend($1)', [pid]);
      await admin.end();
      const ended = () => warnings.filter((w) => w.includes('PostgreSQL ended an idle connection'));
      await expect.poll(() => ended().length, { timeout: 5_000 }).toBe(1);
      const again = await sql<{ one: number }>`select 1 as one`.execute(database.db);
      expect(again.rows[0]?.one).toBe(1);
    } finally {
      process.off('warning', onWarning);
      await database.close();
    }
  });
});
