import type { Resource, Role } from '@kilowatch/contract';
import { sql } from 'kysely';
import { containsPattern, type Db } from '../../../db/sql.ts';

// ---- resources ----------------------------------------------------------------------------------

export interface ResourceSeed {
  path: string;
  name: string;
  titleKey: string;
  parentPath: string | null;
  adminOnly: boolean;
  sort: number;
}

/** Inserts or refreshes every route, and drops resources no longer in the list (and their grants). */
export async function syncResources(db: Db, seeds: ResourceSeed[]): Promise<void> {
  if (seeds.length === 0) return;
  await db
    .insertInto('resources')
    .values(
      seeds.map((s) => ({
        path: s.path,
        name: s.name,
        title_key: s.titleKey,
        parent_path: s.parentPath,
        admin_only: s.adminOnly ? 1 : 0,
        sort: s.sort,
      })),
    )
    .onConflict((oc) =>
      oc.column('path').doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'),
        title_key: eb.ref('excluded.title_key'),
        parent_path: eb.ref('excluded.parent_path'),
        admin_only: eb.ref('excluded.admin_only'),
        sort: eb.ref('excluded.sort'),
      })),
    )
    .execute();
  await db
    .deleteFrom('resources')
    .where(
      'path',
      'not in',
      seeds.map((s) => s.path),
    )
    .execute();
}

export async function listResources(db: Db): Promise<Resource[]> {
  const rows = await db.selectFrom('resources').selectAll().orderBy('sort').orderBy('id').execute();
  return rows.map((r) => ({
    id: r.id,
    path: r.path,
    name: r.name,
    titleKey: r.title_key,
    parentPath: r.parent_path,
    adminOnly: r.admin_only !== 0,
    sort: r.sort,
  }));
}

export async function existingResourcePaths(db: Db, paths: string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const rows = await db.selectFrom('resources').select('path').where('path', 'in', paths).execute();
  return new Set(rows.map((r) => r.path));
}

// ---- roles --------------------------------------------------------------------------------------

const selectRoles = (db: Db) =>
  db.selectFrom('roles').select((eb) => [
    'roles.id',
    'roles.code',
    'roles.name',
    'roles.description',
    'roles.created_at',
    eb
      .selectFrom('user_roles')
      .select((e) => e.fn.countAll<number | string>().as('n'))
      .whereRef('user_roles.role_id', '=', 'roles.id')
      .as('user_count'),
  ]);

type RoleRow = {
  id: number;
  code: string;
  name: string;
  description: string;
  created_at: string;
  user_count: number | string | null;
};

async function withPaths(db: Db, rows: RoleRow[]): Promise<Role[]> {
  const ids = rows.map((r) => r.id);
  const grants = ids.length
    ? await db
        .selectFrom('role_resources')
        .innerJoin('resources', 'resources.path', 'role_resources.resource_path')
        .select(['role_resources.role_id', 'role_resources.resource_path'])
        .where('role_resources.role_id', 'in', ids)
        .orderBy('resources.sort')
        .execute()
    : [];
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    name: r.name,
    description: r.description,
    resourcePaths: grants.filter((g) => g.role_id === r.id).map((g) => g.resource_path),
    userCount: Number(r.user_count ?? 0),
    createdAt: r.created_at,
  }));
}

/** Roles whose code or name contains `keyword` (case-insensitive). */
export async function listRoles(
  db: Db,
  { keyword, limit, offset }: { keyword?: string; limit: number; offset: number },
): Promise<{ roles: Role[]; total: number }> {
  let rows = selectRoles(db);
  let total = db.selectFrom('roles').select((eb) => eb.fn.countAll<number | string>().as('count'));
  if (keyword) {
    const pattern = sql<string>`${containsPattern(keyword)} escape '\\'`;
    rows = rows.where((eb) =>
      eb.or([
        eb(sql`lower(${sql.ref('roles.code')})`, 'like', pattern),
        eb(sql`lower(${sql.ref('roles.name')})`, 'like', pattern),
      ]),
    );
    total = total.where((eb) =>
      eb.or([
        eb(sql`lower(${sql.ref('roles.code')})`, 'like', pattern),
        eb(sql`lower(${sql.ref('roles.name')})`, 'like', pattern),
      ]),
    );
  }
  const [found, { count }] = await Promise.all([
    rows.orderBy('roles.id').limit(limit).offset(offset).execute(),
    total.executeTakeFirstOrThrow(),
  ]);
  return { roles: await withPaths(db, found), total: Number(count) };
}

export async function findRole(db: Db, id: number): Promise<Role | undefined> {
  const row = await selectRoles(db).where('roles.id', '=', id).executeTakeFirst();
  return row && (await withPaths(db, [row]))[0];
}

export async function insertRole(
  db: Db,
  input: { code: string; name: string; description: string },
  now: string,
): Promise<number | undefined> {
  const row = await db
    .insertInto('roles')
    .values({ ...input, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('code').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function updateRole(
  db: Db,
  id: number,
  input: { code: string; name: string; description?: string },
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('roles')
    .set({
      code: input.code,
      name: input.name,
      ...(input.description !== undefined ? { description: input.description } : {}),
      updated_at: now,
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function findRoleIdByCode(db: Db, code: string): Promise<number | undefined> {
  const row = await db.selectFrom('roles').select('id').where('code', '=', code).executeTakeFirst();
  return row?.id;
}

export async function setRoleResources(db: Db, roleId: number, paths: string[]): Promise<void> {
  await db.deleteFrom('role_resources').where('role_id', '=', roleId).execute();
  if (paths.length) {
    await db
      .insertInto('role_resources')
      .values(paths.map((path) => ({ role_id: roleId, resource_path: path })))
      .execute();
  }
}

export async function countRoleUsers(db: Db, roleId: number): Promise<number> {
  const { count } = await db
    .selectFrom('user_roles')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('role_id', '=', roleId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Deletes a role; its grants go with it (cascade). Callers refuse roles still held. */
export async function deleteRole(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('roles').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function existingRoleIds(db: Db, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('roles').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}
