import type { Kysely } from 'kysely';

// Frozen in time: this file must keep producing the same table even as the app's types move on.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>): Promise<void> {
  // Failed logins per (source, username) and per source, shared by every replica (docs/auth.md).
  await db.schema
    .createTable('login_failures')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('last_failure_at', 'text', (c) => c.notNull())
    .addColumn('previous_failure_at', 'text')
    .addColumn('forget_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_failures_forget_at').on('login_failures').column('forget_at').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('login_failures').execute();
}
