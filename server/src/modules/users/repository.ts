import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import type { DB, UsersTable } from '../../db/index.ts';

/** A user as the rest of the server sees it; the row's 0/1 and JSON text never leave this file. */
export interface User {
  id: number;
  username: string;
  passwordHash: string;
  name: string;
  avatar: string;
  introduction: string;
  userLevel: number | null;
  disabled: boolean;
  setting: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

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

type Db = Kysely<DB> | Transaction<DB>;

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
