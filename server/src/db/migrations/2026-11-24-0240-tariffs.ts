import type { Kysely } from 'kysely';
import { autoIncrementId, type Dialect } from '../dialect.ts';

// Frozen in time: this file must keep producing the same tables even as the app's types move on.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // A time-of-use tariff. holidays, workdays (local dates) and weekend_days (ISO weekdays) are JSON
  // arrays: they decide each day's type for every version of the tariff.
  await db.schema
    .createTable('tariffs')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('holidays', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('workdays', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('weekend_days', 'text', (c) => c.notNull().defaultTo('[6,7]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // A dated version: valid from a local date (YYYY-MM-DD, plant zone) until the next one. body is
  // JSON: prices, seasons with their bands per day type, demand charge, power-factor target, note.
  await db.schema
    .createTable('tariff_versions')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('tariff_id', 'integer', (c) => c.notNull().references('tariffs.id').onDelete('cascade'))
    .addColumn('valid_from', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('tariff_versions_from')
    .on('tariff_versions')
    .columns(['tariff_id', 'valid_from'])
    .unique()
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tariff_versions').execute();
  await db.schema.dropTable('tariffs').execute();
}
