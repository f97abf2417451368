import type { Kysely } from 'kysely';

// Frozen in time: this file must keep producing the same table even as the app's types move on.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>): Promise<void> {
  // What of a watch's judgement lives only between points (docs/cluster.md): an on-delay or
  // off-delay under way and the recent raises the chattering flag counts. Written when it changes,
  // never per point, so the replica that takes a dead one's monitors resumes a delay where it was.
  await db.schema
    .createTable('alarm_timers')
    .addColumn('monitor_id', 'integer', (c) =>
      c.notNull().references('alarm_monitors.id').onDelete('cascade'),
    )
    .addColumn('rule_id', 'integer', (c) => c.notNull())
    .addColumn('thing_id', 'integer', (c) => c.notNull())
    // 1 when the condition held at the newest point judged.
    .addColumn('holding', 'integer', (c) => c.notNull())
    // When the condition began to disagree with the alarm's state (ISO); null when no delay runs.
    .addColumn('change_since', 'text')
    .addColumn('last_at', 'text')
    // The newest point's value as JSON (a number or a string), null before any.
    .addColumn('last_value', 'text')
    // Raise times within the chatter window, a JSON array of epoch milliseconds.
    .addColumn('raises', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('alarm_timers_pk', ['monitor_id', 'rule_id', 'thing_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('alarm_timers').execute();
}
