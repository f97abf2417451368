import { type Selectable, sql } from 'kysely';
import type { UsersTable } from '../../db/index.ts';
import { containsPattern, type Db } from '../../db/sql.ts';
import type { Account as User, UserAccess } from '../auth/index.ts';

/** A user as the rest of the server sees it; the row's 0/1 and JSON text never leave this file. */
export interface NewUser {
  username: string;
  passwordHash: string;
  name?: string;
  avatar?: string;
  introduction?: string;
  userLevel: number | null;
  disabled?: boolean;
  setting?: Record<string, unknown>;
}

const parseSetting = (text: string): Record<string, unknown> => {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
};

const toUser = (row: Selectable<UsersTable>): User => ({
  id: row.id,
  username: row.username,
  passwordHash: row.password_hash,
  name: row.name,
  avatar: row.avatar,
  introduction: row.introduction,
  userLevel: row.user_level,
  disabled: row.disabled !== 0,
  setting: parseSetting(row.setting),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export async function findUserById(db: Db, id: number): Promise<User | undefined> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toUser(row);
}

/** Case-insensitive, matching the unique index on lower(username). */
export async function findUserByUsername(db: Db, username: string): Promise<User | undefined> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
  return row && toUser(row);
}

export async function countUsers(db: Db): Promise<number> {
  const { count } = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  // PostgreSQL returns count(*) as a bigint string.
  return Number(count);
}

/** Inserts unless the username is taken; returns the new user, or undefined when it was. */
export async function insertUserIfAbsent(db: Db, user: NewUser, now: string): Promise<User | undefined> {
  const row = await db
    .insertInto('users')
    .values({
      username: user.username,
      password_hash: user.passwordHash,
      name: user.name ?? '',
      avatar: user.avatar ?? '',
      introduction: user.introduction ?? '',
      user_level: user.userLevel,
      disabled: user.disabled ? 1 : 0,
      setting: JSON.stringify(user.setting ?? {}),
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  return row && toUser(row);
}

export async function updatePasswordHash(
  db: Db,
  id: number,
  passwordHash: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: now })
    .where('id', '=', id)
    .execute();
}

// ---- administration (system management: /sys_management/user) -------------------------------------

export interface UserSearch {
  /** Matches username or name, case-insensitively. */
  keyword?: string;
  limit: number;
  offset: number;
}

export async function listUsers(db: Db, { keyword, limit, offset }: UserSearch) {
  let query = db.selectFrom('users');
  if (keyword) {
    const pattern = containsPattern(keyword);
    query = query.where((eb) =>
      eb.or([
        eb(sql<string>`lower(username)`, 'like', sql<string>`${pattern} escape '\\'`),
        eb(sql<string>`lower(name)`, 'like', sql<string>`${pattern} escape '\\'`),
      ]),
    );
  }
  const [rows, { count }] = await Promise.all([
    query.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { users: rows.map(toUser), total: Number(count) };
}

export interface UserChanges {
  name: string;
  avatar?: string;
  introduction?: string;
  userLevel: number | null;
  disabled?: boolean;
}

export async function updateUser(db: Db, id: number, changes: UserChanges, now: string): Promise<void> {
  await db
    .updateTable('users')
    .set({
      name: changes.name,
      user_level: changes.userLevel,
      updated_at: now,
      ...(changes.avatar !== undefined ? { avatar: changes.avatar } : {}),
      ...(changes.introduction !== undefined ? { introduction: changes.introduction } : {}),
      ...(changes.disabled !== undefined ? { disabled: changes.disabled ? 1 : 0 } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** Deletes the user; their tokens, role and group memberships go with them (cascade). */
export async function deleteUser(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Enabled admins (userLevel 1) other than `exceptId`: the guard against locking everyone out. */
export async function countOtherEnabledAdmins(db: Db, exceptId: number): Promise<number> {
  const { count } = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_level', '=', 1)
    .where('disabled', '=', 0)
    .where('id', '<>', exceptId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

const groupIds = <K extends string>(rows: { user_id: number }[], key: K) => {
  const map = new Map<number, number[]>();
  for (const row of rows as (Record<K, number> & { user_id: number })[]) {
    const list = map.get(row.user_id) ?? [];
    list.push(row[key]);
    map.set(row.user_id, list);
  }
  return map;
};

/** Role ids held by each of `userIds`. */
export async function roleIdsOf(db: Db, userIds: number[]): Promise<Map<number, number[]>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('user_roles')
    .select(['user_id', 'role_id'])
    .where('user_id', 'in', userIds)
    .orderBy('role_id')
    .execute();
  return groupIds(rows, 'role_id');
}

/** Group ids each of `userIds` belongs to. */
export async function groupIdsOf(db: Db, userIds: number[]): Promise<Map<number, number[]>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('user_groups')
    .select(['user_id', 'group_id'])
    .where('user_id', 'in', userIds)
    .orderBy('group_id')
    .execute();
  return groupIds(rows, 'group_id');
}

export async function setUserRoles(db: Db, userId: number, roleIds: number[]): Promise<void> {
  await db.deleteFrom('user_roles').where('user_id', '=', userId).execute();
  if (roleIds.length) {
    await db
      .insertInto('user_roles')
      .values(roleIds.map((roleId) => ({ user_id: userId, role_id: roleId })))
      .execute();
  }
}

export async function setUserGroups(db: Db, userId: number, groupIdList: number[]): Promise<void> {
  await db.deleteFrom('user_groups').where('user_id', '=', userId).execute();
  if (groupIdList.length) {
    await db
      .insertInto('user_groups')
      .values(groupIdList.map((groupId) => ({ user_id: userId, group_id: groupId })))
      .execute();
  }
}

/** One query: the user's roles with their grants (a role without grants still counts). */
export async function findUserAccess(db: Db, userId: number): Promise<UserAccess> {
  const rows = await db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .leftJoin('role_resources', 'role_resources.role_id', 'roles.id')
    .select(['roles.code', 'role_resources.resource_path'])
    .where('user_roles.user_id', '=', userId)
    .orderBy('roles.code')
    .orderBy('role_resources.resource_path')
    .execute();
  const roleCodes = new Set<string>();
  const paths = new Set<string>();
  for (const row of rows) {
    roleCodes.add(row.code);
    if (row.resource_path !== null) paths.add(row.resource_path);
  }
  return { roleCodes: [...roleCodes], paths: [...paths] };
}

/**
 * The user with their roles and grants and whether `session` (a refresh-token family) is still
 * open, in one query (what every authenticated request needs). Undefined when there is no such user.
 */
export async function findUserWithAccess(
  db: Db,
  userId: number,
  session: string,
): Promise<{ user: User; access: UserAccess; sessionOpen: boolean } | undefined> {
  const rows = await db
    .selectFrom('users')
    .leftJoin('user_roles', 'user_roles.user_id', 'users.id')
    .leftJoin('roles', 'roles.id', 'user_roles.role_id')
    .leftJoin('role_resources', 'role_resources.role_id', 'roles.id')
    .selectAll('users')
    .select(['roles.code as role_code', 'role_resources.resource_path'])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('refresh_tokens')
            .select(sql`1`.as('one'))
            .where('refresh_tokens.family', '=', session)
            // A constant, not users.id: uncorrelated, the subquery runs once, not once per grant row.
            .where('refresh_tokens.user_id', '=', userId)
            .where('refresh_tokens.revoked_at', 'is', null),
        )
        .as('session_open'),
    )
    .where('users.id', '=', userId)
    .orderBy('roles.code')
    .orderBy('role_resources.resource_path')
    .execute();
  const first = rows[0];
  if (!first) return undefined;
  const roleCodes = new Set<string>();
  const paths = new Set<string>();
  for (const row of rows) {
    if (row.role_code === null) continue;
    roleCodes.add(row.role_code);
    if (row.resource_path !== null) paths.add(row.resource_path);
  }
  const { role_code: _code, resource_path: _path, session_open, ...user } = first;
  return {
    user: toUser(user),
    access: { roleCodes: [...roleCodes], paths: [...paths] },
    // SQLite answers 0/1, PostgreSQL a boolean.
    sessionOpen: Boolean(session_open),
  };
}
