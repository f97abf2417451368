import type { Kysely } from 'kysely';
import { autoIncrementId, type Dialect } from '../dialect.ts';

// Frozen in time: this file must keep producing the same tables even as the app's types move on.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // Single-line diagrams: the graph is read and written whole by the editor, so it is one JSON
  // text (validated by the service) rather than rows per symbol. Names are unique per plant.
  await db.schema
    .createTable('diagrams')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('graph', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('diagrams').execute();
}
