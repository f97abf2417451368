import type { Kysely } from 'kysely';
import { autoIncrementId, type Dialect } from '../dialect.ts';

// Frozen in time: this file must keep producing the same tables even as the app's types move on.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // Templates: reusable sets of rules for one device category (docs/alarms.md).
  await db.schema
    .createTable('alarm_templates')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category_id', 'integer', (c) => c.notNull().references('thing_categories.id'))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('alarm_templates_name').on('alarm_templates').column('name').unique().execute();

  // A rule watches one ability; `condition` is the contract's AlarmCondition as JSON text. A rule of
  // a template belongs to it (template_id), a free rule has none.
  await db.schema
    .createTable('alarm_rules')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('template_id', 'integer', (c) => c.references('alarm_templates.id').onDelete('cascade'))
    .addColumn('category_id', 'integer', (c) => c.references('thing_categories.id'))
    .addColumn('ability', 'text', (c) => c.notNull())
    .addColumn('condition', 'text', (c) => c.notNull())
    .addColumn('on_delay', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('off_delay', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deadband', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('alarm_rules_template').on('alarm_rules').column('template_id').execute();

  // A monitor applies a rule or a template (`applied`) to a thing or a region (`target`; a region
  // means its descendants too, resolved when evaluated, so a device added to it later is covered).
  // No foreign keys on the polymorphic ids: the alarms service deletes a rule's or template's monitors
  // in the same transaction.
  await db.schema
    .createTable('alarm_monitors')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('applied_type', 'text', (c) => c.notNull())
    .addColumn('applied_id', 'integer', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('alarm_monitors_applied_target')
    .on('alarm_monitors')
    .columns(['applied_type', 'applied_id', 'target_type', 'target_id'])
    .unique()
    .execute();

  // Alarm history: one row per alarm, its ISA-18.2 state in flags; names are kept as they were when
  // it raised, so history reads the same after a thing is renamed or deleted.
  await db.schema
    .createTable('alarm_history')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('monitor_id', 'integer', (c) => c.notNull())
    .addColumn('rule_id', 'integer', (c) => c.notNull())
    .addColumn('rule_name', 'text', (c) => c.notNull())
    .addColumn('template_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('thing_id', 'integer', (c) => c.notNull())
    .addColumn('thing_name', 'text', (c) => c.notNull())
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'integer', (c) => c.notNull())
    .addColumn('resource_name', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('alarm_at', 'text', (c) => c.notNull())
    .addColumn('returned_at', 'text')
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('acknowledged', 'integer', (c) => c.notNull())
    .addColumn('closed', 'integer', (c) => c.notNull())
    .addColumn('shelved_until', 'text')
    .addColumn('suppressed', 'integer', (c) => c.notNull())
    .addColumn('chattering', 'integer', (c) => c.notNull())
    .addColumn('occurrences', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('alarm_history_open')
    .on('alarm_history')
    .columns(['closed', 'alarm_at'])
    .execute();
  await db.schema
    .createIndex('alarm_history_pair')
    .on('alarm_history')
    .columns(['monitor_id', 'thing_id', 'rule_id', 'closed'])
    .execute();

  // Every operator action on an alarm, with who, when and what they wrote.
  await db.schema
    .createTable('alarm_actions')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('history_id', 'integer', (c) => c.notNull().references('alarm_history.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('until', 'text')
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('alarm_actions_history').on('alarm_actions').column('history_id').execute();

  // Maintenance windows: alarms raised on a thing or region inside one are kept, marked suppressed.
  await db.schema
    .createTable('alarm_maintenance')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('ends_at', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'alarm_maintenance',
    'alarm_actions',
    'alarm_history',
    'alarm_monitors',
    'alarm_rules',
    'alarm_templates',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
