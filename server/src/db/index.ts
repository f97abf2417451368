import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, type SqliteDatabase as SqliteDialectDatabase, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.ts';
import type { Dialect } from './dialect.ts';
import { SchemaScopedPostgresDialect } from './postgres-dialect.ts';
import type { DB } from './schema.ts';

export type { Dialect } from './dialect.ts';
export { migrateToLatest } from './migrate.ts';
export type { DB, RefreshTokensTable, UsersTable } from './schema.ts';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** Safe to call more than once. */
  close(): Promise<void>;
  /**
   * SQLite only: an online copy into `file` through SQLite's backup API, page by page without
   * holding the event loop; the copy is consistent as of its end. PostgreSQL has pg_dump instead.
   */
  backup?(file: string): Promise<void>;
}

const once = (close: () => Promise<void>): (() => Promise<void>) => {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= close();
    return closing;
  };
};

/** Opens the metadata database DATABASE_URL names: PostgreSQL, or the embedded SQLite file. */
export function openDatabase(config: DatabaseConfig): Database {
  if (config.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: config.url, max: 10 });
    // PostgreSQL ends idle connections on a restart, a failover or an administrator's command; the
    // pool drops such a client and connects anew when asked, but the event, unheard, would end the
    // process. It is said once per connection, on the process's warning channel (stderr).
    pool.on('error', (error) =>
      process.emitWarning(`PostgreSQL ended an idle connection: ${error.message}`, 'KilowatchDatabase'),
    );
    const db = new Kysely<DB>({ dialect: new SchemaScopedPostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: once(() => db.destroy()) };
  }
  const file = new SqliteDatabase(config.file);
  // WAL lets readers proceed while a write commits; foreign keys are off by default in SQLite.
  if (config.file !== ':memory:') file.pragma('journal_mode = WAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: reusedStatements(file) }) });
  return {
    db,
    dialect: 'sqlite',
    close: once(() => db.destroy()),
    backup: async (target) => {
      await file.backup(target);
    },
  };
}

/** Statements kept per SQL text; past this many the least recently used is dropped. */
const STATEMENTS_KEPT = 256;

/**
 * The SQLite file as Kysely's dialect sees it, with each statement prepared once and run again
 * from then on: preparing anew on every call (Kysely's driver does) was ≈ 0.08 ms of every
 * authenticated request's ≈ 0.3 ms floor (bench/README.md, "A realtime answer that never waits").
 * Kysely runs one query at a time on the connection; a statement still being iterated (a
 * streamed select) is `busy`, and is then prepared again rather than shared.
 */
function reusedStatements(file: SqliteDatabase.Database): SqliteDialectDatabase {
  const kept = new Map<string, SqliteDatabase.Statement>();
  return {
    prepare(text) {
      const found = kept.get(text);
      if (found && !found.busy) {
        // Re-inserted, so the map's order is the order of last use.
        kept.delete(text);
        kept.set(text, found);
        return found;
      }
      const statement = file.prepare(text);
      if (!found) {
        kept.set(text, statement);
        if (kept.size > STATEMENTS_KEPT) kept.delete(kept.keys().next().value as string);
      }
      return statement;
    },
    close: () => file.close(),
  };
}

/** Throws when the database does not answer. */
export async function ping(db: Kysely<DB>): Promise<void> {
  await sql`select 1`.execute(db);
}
