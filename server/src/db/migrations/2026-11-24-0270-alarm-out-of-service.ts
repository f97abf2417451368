import type { Kysely } from 'kysely';
import { autoIncrementId, type Dialect } from '../dialect.ts';

// Frozen in time: this file must keep producing the same table even as the app's types move on.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // Alarms taken out of service (ISA-18.2): a rule on one thing (rule_id + thing_id), or everything
  // a monitor watches (monitor_id). The engine does not watch them until the row is deleted (returned
  // to service). Names are kept as they were, like alarm history's.
  await db.schema
    .createTable('alarm_out_of_service')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('rule_id', 'integer')
    .addColumn('thing_id', 'integer')
    .addColumn('monitor_id', 'integer')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('alarm_out_of_service').execute();
}
