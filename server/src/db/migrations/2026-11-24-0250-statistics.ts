import type { Kysely } from 'kysely';
import { autoIncrementId, type Dialect } from '../dialect.ts';

// Frozen in time: this file must keep producing the same tables even as the app's types move on.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // Which metrics the statistics screen offers: one row per user who saved their own, and the
  // plant's (owner 0). `value` is JSON { items, circle }.
  await db.schema
    .createTable('statistics_configs')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('owner', 'integer', (c) => c.notNull().unique())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // Named sets of things or regions compared side by side; a filter is one member of a group.
  await db.schema
    .createTable('filter_groups')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('filters')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('filter_groups.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'integer', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('filters_group').on('filters').columns(['group_id', 'sort']).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['filters', 'filter_groups', 'statistics_configs']) {
    await db.schema.dropTable(table).execute();
  }
}
