import type { Kysely } from 'kysely';
import { autoIncrementId, type Dialect } from '../dialect.ts';

// Frozen in time: this file must keep producing the same tables even as the app's types move on.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // Workshop data board (spec §2 workshopBoard, §7 /api/board/pages; docs/board.md): pages of a
  // rotation, each for a region, shown for its interval times its weight per rotation.
  await db.schema
    .createTable('board_pages')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('region_id', 'integer', (c) => c.notNull().references('regions.id').onDelete('cascade'))
    .addColumn('successor', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('category_id', 'integer')
    .addColumn('interval_s', 'integer', (c) => c.notNull())
    .addColumn('weight', 'integer', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // A page's components: the KPI report component model (params, metrics, comparison as JSON
  // text), plus the device tiles kind; the grid place as columns.
  await db.schema
    .createTable('board_components')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('page_id', 'integer', (c) => c.notNull().references('board_pages.id').onDelete('cascade'))
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
  await db.schema.createIndex('board_components_page').on('board_components').column('page_id').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('board_components').execute();
  await db.schema.dropTable('board_pages').execute();
}
