import type { Kysely } from 'kysely';
import { autoIncrementId, type Dialect } from '../dialect.ts';

// Frozen in time: this file must keep producing the same tables even as the app's types move on.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // The situation map's layout image: one row (id 1). Kept in the metadata database, not the data
  // directory, so every server process of the replica tier serves the same image and a database
  // backup holds it (docs/dashboard.md).
  await db.schema
    .createTable('dashboard_map_image')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('bytes', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // A marker: a thing or a region at fractions of the image. Deleting the thing or region takes
  // its marker off the map (cascade), so the map never points at something gone.
  await db.schema
    .createTable('dashboard_placements')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('thing_id', 'integer', (c) => c.references('things.id').onDelete('cascade'))
    .addColumn('region_id', 'integer', (c) => c.references('regions.id').onDelete('cascade'))
    .addColumn('x', dialect === 'postgres' ? 'double precision' : 'real', (c) => c.notNull())
    .addColumn('y', dialect === 'postgres' ? 'double precision' : 'real', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('dashboard_placements_thing')
    .unique()
    .on('dashboard_placements')
    .column('thing_id')
    .execute();
  await db.schema
    .createIndex('dashboard_placements_region')
    .unique()
    .on('dashboard_placements')
    .column('region_id')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('dashboard_placements').execute();
  await db.schema.dropTable('dashboard_map_image').execute();
}
