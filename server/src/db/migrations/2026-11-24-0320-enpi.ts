import type { Kysely } from 'kysely';
import { autoIncrementId, type Dialect } from '../dialect.ts';

// Frozen in time: this file must keep producing the same tables even as the app's types move on.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // An EnPI definition (docs/enpi.md). body is JSON: energy and output sources, output unit,
  // temperature and degree-day bases, period, baseline dates and regression variables.
  await db.schema
    .createTable('enpis')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // Output entered by hand, one row per period (its first local day, YYYY-MM-DD). Doubles on
  // PostgreSQL: its `real` is single precision.
  await db.schema
    .createTable('enpi_outputs')
    .addColumn('enpi_id', 'integer', (c) => c.notNull().references('enpis.id').onDelete('cascade'))
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('value', dialect === 'postgres' ? 'double precision' : 'real', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('enpi_outputs_pk', ['enpi_id', 'period'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['enpi_outputs', 'enpis']) {
    await db.schema.dropTable(table).execute();
  }
}
