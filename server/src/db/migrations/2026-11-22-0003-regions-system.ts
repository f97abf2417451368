import type { Kysely } from 'kysely';
import { autoIncrementId, type Dialect } from '../dialect.ts';

// Frozen in time: this file must keep producing the same tables even as the app's types move on.
// Resources (the console's routes) and the systemSetting row are seeded by the bootstrap step
// after migrations (server/src/modules/system/bootstrap.ts), so new routes appear without a
// migration.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // ---- regions ----------------------------------------------------------------------------------
  await db.schema
    .createTable('regions')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    // No cascade: deleting a region that still has sub-regions is refused (409).
    .addColumn('parent_id', 'integer', (c) => c.references('regions.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('regions_parent_id').on('regions').column('parent_id').execute();

  // A thing may be bound to several regions (e.g. a line and the cost centre it belongs to).
  await db.schema
    .createTable('region_things')
    .addColumn('region_id', 'integer', (c) => c.notNull().references('regions.id').onDelete('cascade'))
    .addColumn('thing_id', 'integer', (c) => c.notNull().references('things.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('region_things_pk', ['region_id', 'thing_id'])
    .execute();
  await db.schema.createIndex('region_things_thing_id').on('region_things').column('thing_id').execute();

  // ---- groups -----------------------------------------------------------------------------------
  await db.schema
    .createTable('groups')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('user_groups')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_groups_pk', ['user_id', 'group_id'])
    .execute();
  await db.schema.createIndex('user_groups_group_id').on('user_groups').column('group_id').execute();

  // ---- resources, roles, grants -----------------------------------------------------------------
  await db.schema
    .createTable('resources')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('path', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('title_key', 'text', (c) => c.notNull())
    .addColumn('parent_path', 'text')
    .addColumn('admin_only', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('roles')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // A grant follows its route: a route dropped from the console takes its grants with it.
  await db.schema
    .createTable('role_resources')
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('resource_path', 'text', (c) =>
      c.notNull().references('resources.path').onDelete('cascade').onUpdate('cascade'),
    )
    .addPrimaryKeyConstraint('role_resources_pk', ['role_id', 'resource_path'])
    .execute();
  // No cascade on roles: deleting a role that users hold is refused (409).
  await db.schema
    .createTable('user_roles')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id'))
    .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role_id'])
    .execute();
  await db.schema.createIndex('user_roles_role_id').on('user_roles').column('role_id').execute();

  // ---- system settings --------------------------------------------------------------------------
  await db.schema
    .createTable('sys_configs')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('identifier', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // ---- video labels -----------------------------------------------------------------------------
  await db.schema
    .createTable('videos')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('stream_url', 'text', (c) => c.notNull())
    .addColumn('region_id', 'integer', (c) => c.references('regions.id').onDelete('set null'))
    .addColumn('thing_id', 'integer', (c) => c.references('things.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'videos',
    'sys_configs',
    'user_roles',
    'role_resources',
    'roles',
    'resources',
    'user_groups',
    'groups',
    'region_things',
    'regions',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
