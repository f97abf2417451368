import type { Category } from '@kilowatch/contract';
import type { ExpressionBuilder } from 'kysely';
import type { DB } from '../../../db/index.ts';
import type { ThingCategoriesTable } from '../../../db/schema.ts';
import type { Db } from '../../../db/sql.ts';
import { nameContains, offset, type PageArgs, type Rows } from './rows.ts';

// ---- categories ---------------------------------------------------------------------------------

const categoryColumns = (eb: ExpressionBuilder<DB & { c: ThingCategoriesTable }, 'c'>) =>
  [
    'c.id',
    'c.name',
    'c.description',
    'c.created_at',
    'c.updated_at',
    eb
      .selectFrom('thing_category_abilities as a')
      .select((e) => e.fn.countAll<number | string>().as('n'))
      .whereRef('a.category_id', '=', 'c.id')
      .as('ability_count'),
    eb
      .selectFrom('thing_models as m')
      .select((e) => e.fn.countAll<number | string>().as('n'))
      .whereRef('m.category_id', '=', 'c.id')
      .as('model_count'),
  ] as const;

interface CategoryRow {
  id: number;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
  ability_count: number | string | null;
  model_count: number | string | null;
}

const toCategory = (row: CategoryRow): Category => ({
  id: row.id,
  name: row.name,
  description: row.description,
  abilityCount: Number(row.ability_count ?? 0),
  modelCount: Number(row.model_count ?? 0),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export async function listCategories(db: Db, query: PageArgs & { name?: string }): Promise<Rows<Category>> {
  let base = db.selectFrom('thing_categories as c');
  if (query.name) base = base.where(nameContains('c.name', query.name));
  const { total } = await base
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await base
    .select(categoryColumns)
    .orderBy('c.id')
    .limit(query.pageSize)
    .offset(offset(query))
    .execute();
  return { list: rows.map(toCategory), total: Number(total) };
}

export async function findCategory(db: Db, id: number): Promise<Category | undefined> {
  const row = await db
    .selectFrom('thing_categories as c')
    .select(categoryColumns)
    .where('c.id', '=', id)
    .executeTakeFirst();
  return row && toCategory(row);
}

export async function insertCategory(
  db: Db,
  input: { name: string; description: string },
  now: string,
): Promise<number> {
  const { id } = await db
    .insertInto('thing_categories')
    .values({ name: input.name, description: input.description, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateCategory(
  db: Db,
  id: number,
  input: { name: string; description: string },
  now: string,
): Promise<void> {
  await db
    .updateTable('thing_categories')
    .set({ name: input.name, description: input.description, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** The names of the categories among `ids` that exist. */
export async function categoryNames(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('thing_categories')
    .select(['id', 'name'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}
