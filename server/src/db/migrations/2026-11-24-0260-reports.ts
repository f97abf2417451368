import type { Kysely } from 'kysely';
import { autoIncrementId, type Dialect } from '../dialect.ts';

// Frozen in time: this file must keep producing the same tables even as the app's types move on.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // KPI reports (spec §3 report): folders and reports in one tree. parent_id NULL is the top
  // level; a node's children go with it (the service deletes the subtree, the foreign key
  // guards against orphans).
  await db.schema
    .createTable('reports')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('parent_id', 'integer', (c) => c.references('reports.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('folder', 'integer', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('published_at', 'text')
    .addColumn('published_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reports_parent').on('reports').column('parent_id').execute();

  // Report components (spec §3): params, metrics and comparison as JSON text, the grid place as
  // columns (the grid is read and written whole).
  await db.schema
    .createTable('report_components')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('report_id', 'integer', (c) => c.notNull().references('reports.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('chart_type', 'text', (c) => c.notNull())
    .addColumn('yoy', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('metrics', 'text', (c) => c.notNull())
    .addColumn('x', 'integer', (c) => c.notNull())
    .addColumn('y', 'integer', (c) => c.notNull())
    .addColumn('w', 'integer', (c) => c.notNull())
    .addColumn('h', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('report_components_report')
    .on('report_components')
    .column('report_id')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('report_components').execute();
  await db.schema.dropTable('reports').execute();
}
