import type { Kysely } from 'kysely';
import { autoIncrementId, type Dialect } from '../dialect.ts';

// Frozen in time: this file must keep producing the same tables even as the app's types move on.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // Scheduled reports (docs/report-schedules.md). next_run_at is the due instant (ISO, compared as
  // text like the alarm outbox); lease_until marks a run claimed by one server process.
  await db.schema
    .createTable('report_schedules')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('report_id', 'integer', (c) => c.notNull().references('reports.id').onDelete('cascade'))
    .addColumn('frequency', 'text', (c) => c.notNull())
    .addColumn('weekday', 'integer', (c) => c.notNull())
    .addColumn('month_day', 'integer', (c) => c.notNull())
    .addColumn('time', 'text', (c) => c.notNull())
    .addColumn('recipients', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('next_run_at', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('report_schedules_report').on('report_schedules').column('report_id').execute();
  await db.schema
    .createIndex('report_schedules_due')
    .on('report_schedules')
    .columns(['enabled', 'next_run_at'])
    .execute();

  await db.schema
    .createTable('report_schedule_runs')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('schedule_id', 'integer', (c) =>
      c.notNull().references('report_schedules.id').onDelete('cascade'),
    )
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('period_start', 'text', (c) => c.notNull())
    .addColumn('period_end', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error_code', 'text')
    .addColumn('error', 'text', (c) => c.notNull())
    .addColumn('recipients', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('report_schedule_runs_schedule')
    .on('report_schedule_runs')
    .columns(['schedule_id', 'id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('report_schedule_runs').execute();
  await db.schema.dropTable('report_schedules').execute();
}
