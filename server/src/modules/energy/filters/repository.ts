import type { Db } from '../../../db/sql.ts';

export interface GroupRow {
  id: number;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

export interface FilterRow {
  id: number;
  group_id: number;
  name: string;
  resource_type: string;
  resource_id: number;
  sort: number;
}

export interface FilterFields {
  name: string;
  resourceType: 'thing' | 'region';
  resourceId: number;
}

export const listGroups = (db: Db): Promise<GroupRow[]> =>
  db.selectFrom('filter_groups').selectAll().orderBy('name').orderBy('id').execute();

export const findGroup = (db: Db, id: number): Promise<GroupRow | undefined> =>
  db.selectFrom('filter_groups').selectAll().where('id', '=', id).executeTakeFirst();

export const findGroupByName = (db: Db, name: string): Promise<GroupRow | undefined> =>
  db.selectFrom('filter_groups').selectAll().where('name', '=', name).executeTakeFirst();

export async function listFilters(db: Db, groupIds?: readonly number[]): Promise<FilterRow[]> {
  let q = db.selectFrom('filters').selectAll();
  if (groupIds) {
    if (groupIds.length === 0) return [];
    q = q.where('group_id', 'in', groupIds);
  }
  return q.orderBy('group_id').orderBy('sort').orderBy('id').execute();
}

export async function insertGroup(
  db: Db,
  input: { name: string; description: string },
  now: string,
): Promise<number> {
  const row = await db
    .insertInto('filter_groups')
    .values({ name: input.name, description: input.description, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateGroup(
  db: Db,
  id: number,
  input: { name: string; description: string },
  now: string,
): Promise<void> {
  await db
    .updateTable('filter_groups')
    .set({ name: input.name, description: input.description, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Replaces a group's filters with `filters`, in that order. */
export async function replaceFilters(
  db: Db,
  groupId: number,
  filters: readonly FilterFields[],
): Promise<void> {
  await db.deleteFrom('filters').where('group_id', '=', groupId).execute();
  if (filters.length === 0) return;
  await db
    .insertInto('filters')
    .values(
      filters.map((f, i) => ({
        group_id: groupId,
        name: f.name,
        resource_type: f.resourceType,
        resource_id: f.resourceId,
        sort: i,
      })),
    )
    .execute();
}

export async function deleteGroup(db: Db, id: number): Promise<void> {
  await db.deleteFrom('filters').where('group_id', '=', id).execute();
  await db.deleteFrom('filter_groups').where('id', '=', id).execute();
}
