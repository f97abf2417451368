import type { Kysely } from 'kysely';
import { autoIncrementId, type Dialect } from '../dialect.ts';

// Frozen in time: this file must keep producing the same tables even as the app's types move on.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // The SMTP server e-mail notifications go through: one row (id 1), written on the first save.
  await db.schema
    .createTable('alarm_notify_smtp')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('security', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('password', 'text', (c) => c.notNull())
    .addColumn('sender', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // A route sends alarms of some severities, on some events, to a webhook or to e-mail recipients.
  // severities, events and recipients are JSON arrays of text.
  await db.schema
    .createTable('alarm_notify_routes')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('severities', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('secret', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('timeout_ms', 'integer', (c) => c.notNull())
    .addColumn('recipients', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // The outbox: every notification to send, written when the alarm event is, so a restart loses
  // none. `payload` is the rendered message (JSON); status pending → sent, or failed after the
  // last attempt. Rows go with their route.
  await db.schema
    .createTable('alarm_notify_outbox')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('route_id', 'integer', (c) =>
      c.notNull().references('alarm_notify_routes.id').onDelete('cascade'),
    )
    .addColumn('alarm_id', 'integer', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text')
    .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  await db.schema
    .createIndex('alarm_notify_outbox_due')
    .on('alarm_notify_outbox')
    .columns(['status', 'next_attempt_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['alarm_notify_outbox', 'alarm_notify_routes', 'alarm_notify_smtp']) {
    await db.schema.dropTable(table).execute();
  }
}
