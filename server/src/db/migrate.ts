import { type Kysely, Migrator, sql } from 'kysely';
import type { Dialect } from './dialect.ts';
import { migrationsFor } from './migrations/index.ts';
import type { DB } from './schema.ts';

async function currentSchema(db: Kysely<DB>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('PostgreSQL search_path names no existing schema to migrate into');
  return schema;
}

/** Brings the schema up to date; throws naming the migration that failed, after Kysely rolled it back. */
export async function migrateToLatest(db: Kysely<DB>, dialect: Dialect): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrationsFor(dialect) },
    // Kysely looks for its bookkeeping tables in every schema unless told which one; another
    // schema in the same database (another app, a parallel test) would then hide ours.
    ...(dialect === 'postgres' ? { migrationTableSchema: await currentSchema(db) } : {}),
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((r) => r.status === 'Error')?.migrationName ?? '(before any migration ran)';
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Database migration ${failed} failed: ${reason}`, { cause: error });
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
