import type { Kysely } from 'kysely';
import { autoIncrementId, type Dialect } from '../dialect.ts';

// Frozen in time: this file must keep producing the same table even as the app's types move on.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // Metric configs (spec §3): the metrics a thing's or region's charts show. resource_id names a
  // thing or a region (by resource_type), so it has no foreign key; category_id 0 means "none",
  // which keeps the unique index working in both dialects (NULLs never collide).
  await db.schema
    .createTable('metric_configs')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'integer', (c) => c.notNull())
    .addColumn('category_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('metric_identifier', 'text', (c) => c.notNull())
    .addColumn('metric_name', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('unit', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('aggregator', 'text', (c) => c.notNull())
    .addColumn('function', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('color', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('metric_configs_resource_metric')
    .on('metric_configs')
    .columns(['resource_type', 'resource_id', 'category_id', 'metric_identifier'])
    .unique()
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('metric_configs').execute();
}
