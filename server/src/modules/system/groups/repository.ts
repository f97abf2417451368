import type { Group } from '@kilowatch/contract';
import { sql } from 'kysely';
import { containsPattern, type Db } from '../../../db/sql.ts';

/** Groups with how many users belong to each. */
const selectGroups = (db: Db) =>
  db.selectFrom('groups').select((eb) => [
    'groups.id',
    'groups.name',
    'groups.description',
    'groups.created_at',
    eb
      .selectFrom('user_groups')
      .select((e) => e.fn.countAll<number | string>().as('n'))
      .whereRef('user_groups.group_id', '=', 'groups.id')
      .as('user_count'),
  ]);

const toGroup = (r: {
  id: number;
  name: string;
  description: string;
  created_at: string;
  user_count: number | string | null;
}): Group => ({
  id: r.id,
  name: r.name,
  description: r.description,
  userCount: Number(r.user_count ?? 0),
  createdAt: r.created_at,
});

export async function listGroups(
  db: Db,
  { keyword, limit, offset }: { keyword?: string; limit: number; offset: number },
): Promise<{ groups: Group[]; total: number }> {
  let rows = selectGroups(db);
  let total = db.selectFrom('groups').select((eb) => eb.fn.countAll<number | string>().as('count'));
  if (keyword) {
    const pattern = sql<string>`${containsPattern(keyword)} escape '\\'`;
    rows = rows.where(sql`lower(${sql.ref('groups.name')})`, 'like', pattern);
    total = total.where(sql`lower(${sql.ref('groups.name')})`, 'like', pattern);
  }
  const [found, { count }] = await Promise.all([
    rows.orderBy('groups.id').limit(limit).offset(offset).execute(),
    total.executeTakeFirstOrThrow(),
  ]);
  return { groups: found.map(toGroup), total: Number(count) };
}

export async function findGroup(db: Db, id: number): Promise<Group | undefined> {
  const row = await selectGroups(db).where('groups.id', '=', id).executeTakeFirst();
  return row && toGroup(row);
}

export async function insertGroup(
  db: Db,
  input: { name: string; description: string },
  now: string,
): Promise<number> {
  const { id } = await db
    .insertInto('groups')
    .values({ name: input.name, description: input.description, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateGroup(
  db: Db,
  id: number,
  input: { name: string; description?: string },
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('groups')
    .set({
      name: input.name,
      ...(input.description !== undefined ? { description: input.description } : {}),
      updated_at: now,
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes a group; its memberships go with it (cascade). */
export async function deleteGroup(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('groups').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function existingGroupIds(db: Db, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('groups').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}
