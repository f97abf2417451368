import type { Model } from '@kilowatch/contract';
import type { ExpressionBuilder } from 'kysely';
import type { DB } from '../../../db/index.ts';
import type { ThingCategoriesTable, ThingModelsTable } from '../../../db/schema.ts';
import type { Db } from '../../../db/sql.ts';
import { nameContains, offset, type PageArgs, type Rows } from './rows.ts';

// ---- models -------------------------------------------------------------------------------------

interface ModelRow {
  id: number;
  category_id: number;
  category_name: string;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
  thing_count: number | string | null;
}

const toModel = (row: ModelRow): Model => ({
  id: row.id,
  categoryId: row.category_id,
  categoryName: row.category_name,
  name: row.name,
  description: row.description,
  thingCount: Number(row.thing_count ?? 0),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const modelsBase = (db: Db) =>
  db.selectFrom('thing_models as m').innerJoin('thing_categories as c', 'c.id', 'm.category_id');

const modelColumns = (
  eb: ExpressionBuilder<DB & { m: ThingModelsTable; c: ThingCategoriesTable }, 'm' | 'c'>,
) =>
  [
    'm.id',
    'm.category_id',
    'c.name as category_name',
    'm.name',
    'm.description',
    'm.created_at',
    'm.updated_at',
    eb
      .selectFrom('things as t')
      .select((e) => e.fn.countAll<number | string>().as('n'))
      .whereRef('t.model_id', '=', 'm.id')
      .as('thing_count'),
  ] as const;

export async function listModels(
  db: Db,
  query: PageArgs & { name?: string; categoryId?: number },
): Promise<Rows<Model>> {
  let base = modelsBase(db);
  if (query.name) base = base.where(nameContains('m.name', query.name));
  if (query.categoryId !== undefined) base = base.where('m.category_id', '=', query.categoryId);
  const { total } = await base
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await base
    .select(modelColumns)
    .orderBy('m.id')
    .limit(query.pageSize)
    .offset(offset(query))
    .execute();
  return { list: rows.map(toModel), total: Number(total) };
}

export async function findModel(db: Db, id: number): Promise<Model | undefined> {
  const row = await modelsBase(db).select(modelColumns).where('m.id', '=', id).executeTakeFirst();
  return row && toModel(row);
}

/** Every model with its category's name: what an import resolves model names against. */
export async function allModelNames(
  db: Db,
): Promise<{ id: number; name: string; categoryId: number; categoryName: string }[]> {
  const rows = await modelsBase(db)
    .select(['m.id', 'm.name', 'm.category_id', 'c.name as category_name'])
    // By id, not name: text collation differs between SQLite and PostgreSQL.
    .orderBy('c.id')
    .orderBy('m.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    categoryId: r.category_id,
    categoryName: r.category_name,
  }));
}

export async function insertModel(
  db: Db,
  input: { categoryId: number; name: string; description: string },
  now: string,
): Promise<number> {
  const { id } = await db
    .insertInto('thing_models')
    .values({
      category_id: input.categoryId,
      name: input.name,
      description: input.description,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateModel(
  db: Db,
  id: number,
  input: { categoryId: number; name: string; description: string },
  now: string,
): Promise<void> {
  await db
    .updateTable('thing_models')
    .set({ category_id: input.categoryId, name: input.name, description: input.description, updated_at: now })
    .where('id', '=', id)
    .execute();
}
