import type { Kysely } from 'kysely';

// Frozen in time: this file must keep producing the same tables even as the app's types move on.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>): Promise<void> {
  // A region priced with a tariff of its own (docs/tariffs.md "A region's tariff"): one tariff per
  // region at most, so the region is the key. Deleting the tariff or the region drops the row.
  await db.schema
    .createTable('region_tariffs')
    .addColumn('region_id', 'integer', (c) => c.primaryKey().references('regions.id').onDelete('cascade'))
    .addColumn('tariff_id', 'integer', (c) => c.notNull().references('tariffs.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('region_tariffs_tariff').on('region_tariffs').column('tariff_id').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('region_tariffs').execute();
}
