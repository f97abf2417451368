import { sql } from 'kysely';
import type { Db } from '../../../db/sql.ts';

// A category and a model are one kind of row: a named entity (its name unique, ignoring case, within
// its scope: the plant for a category, its category for a model) that carries abilities and that
// other rows use (a category's models, a model's things). Their shared SQL lives here once.

/** Each named table and the table whose rows use it. */
const USED_BY = {
  thing_categories: { table: 'thing_models', column: 'category_id' },
  thing_models: { table: 'things', column: 'model_id' },
} as const;

export type NamedTable = keyof typeof USED_BY;

/** The row of `table` named `name` ignoring case (the unique index's rule); a model's within `categoryId`. */
export async function findIdByName(
  db: Db,
  table: NamedTable,
  name: string,
  categoryId?: number,
): Promise<number | undefined> {
  let query = db.selectFrom(table).select('id').where(sql<string>`lower(name)`, '=', name.toLowerCase());
  if (table === 'thing_models') query = query.where(sql<number>`category_id`, '=', categoryId ?? -1);
  const row = await query.executeTakeFirst();
  return row?.id;
}

/** How many rows use row `id` of `table` (a category's models, a model's things) and the first `limit` names. */
export async function usersOf(
  db: Db,
  table: NamedTable,
  id: number,
  limit: number,
): Promise<{ count: number; names: string[] }> {
  const users = USED_BY[table];
  const { count } = await db
    .selectFrom(users.table)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where(sql.ref(users.column), '=', id)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom(users.table)
    .select('name')
    .where(sql.ref(users.column), '=', id)
    .orderBy('id')
    .limit(limit)
    .execute();
  return { count: Number(count), names: rows.map((r) => r.name) };
}

/** Deletes the row; a category's abilities, a model's overrides go with it by cascade. */
export async function deleteNamed(db: Db, table: NamedTable, id: number): Promise<void> {
  await db.deleteFrom(table).where('id', '=', id).execute();
}
