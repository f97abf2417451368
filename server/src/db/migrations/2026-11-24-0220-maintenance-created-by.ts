import type { Kysely } from 'kysely';

// Frozen in time: this file must keep producing the same column even as the app's types move on.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>): Promise<void> {
  // Who planned a maintenance window (the console lists it); windows planned before are ''.
  await db.schema
    .alterTable('alarm_maintenance')
    .addColumn('created_by', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('alarm_maintenance').dropColumn('created_by').execute();
}
