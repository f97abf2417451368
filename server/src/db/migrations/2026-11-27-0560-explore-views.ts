import type { Kysely } from 'kysely';
import { autoIncrementId, type Dialect } from '../dialect.ts';

// Frozen in time: this file must keep producing the same tables even as the app's types move on.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // Saved Explore views (docs/explore.md): one user's each, gone with the account. The panels and
  // range are read and written whole, so they are one JSON text (bounded by the contract).
  // Names are unique per owner, not per plant: two users may both keep a "compressor room".
  await db.schema
    .createTable('explore_views')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('explore_views_owner_name')
    .unique()
    .on('explore_views')
    .columns(['owner_id', 'name'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('explore_views').execute();
}
