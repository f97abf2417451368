import type { Kysely } from 'kysely';
import { autoIncrementId, type Dialect } from '../dialect.ts';

// Frozen in time: this file must keep producing the same table even as the app's types move on.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // Every annunciation of an alarm (ISA-18.2 / EEMUA 191: each time it becomes active and
  // unacknowledged): its raise, and each re-raise grouped into the same open alarm. The alarm rate,
  // floods and bad actors count these; alarm_history keeps one row per alarm.
  await db.schema
    .createTable('alarm_annunciations')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('history_id', 'integer', (c) => c.notNull().references('alarm_history.id').onDelete('cascade'))
    .addColumn('rule_id', 'integer', (c) => c.notNull())
    .addColumn('thing_id', 'integer', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    // Raised inside a maintenance window: kept, never shown.
    .addColumn('suppressed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('alarm_annunciations_at').on('alarm_annunciations').column('at').execute();
  await db.schema
    .createIndex('alarm_annunciations_history')
    .on('alarm_annunciations')
    .column('history_id')
    .execute();
  // History written before: its raises are known, the times of its grouped re-raises were never kept.
  await db
    .insertInto('alarm_annunciations')
    .columns(['history_id', 'rule_id', 'thing_id', 'at', 'suppressed'])
    .expression(
      db.selectFrom('alarm_history').select(['id', 'rule_id', 'thing_id', 'alarm_at', 'suppressed']),
    )
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('alarm_annunciations').execute();
}
