import {
  type Aggregator,
  type Category,
  type CategoryAbility,
  type DataType,
  type EffectiveAbility,
  type Model,
  naturalCompare,
  type Thing,
  type ThingAttribute,
} from '@kilowatch/contract';
import { type ExpressionBuilder, type Selectable, sql } from 'kysely';
import type { DB } from '../../db/index.ts';
import type { ThingCategoriesTable, ThingCategoryAbilitiesTable, ThingModelsTable } from '../../db/schema.ts';

// All SQL of the device model lives here. Rows (0/1, JSON text, bigint-string counts) become
// contract objects before they leave this file.

import { containsPattern, type Db } from '../../db/sql.ts';
import { slicer } from '../../shared/slices.ts';

export interface PageArgs {
  page: number;
  pageSize: number;
}

export interface Rows<T> {
  list: T[];
  total: number;
}

const offset = ({ page, pageSize }: PageArgs) => (page - 1) * pageSize;

/** lower(column) LIKE lower('%text%') ESCAPE '\': the same on SQLite and PostgreSQL. */
const nameContains = (column: string, text: string) =>
  sql<boolean>`lower(${sql.ref(column)}) like ${containsPattern(text)} escape '\\'`;

const parseJson = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

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

/** The category whose name equals `name` ignoring case (the unique index's rule). */
export async function findCategoryIdByName(db: Db, name: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('thing_categories')
    .select('id')
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst();
  return row?.id;
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

/** Deletes the category and, by cascade, its abilities. */
export async function deleteCategory(db: Db, id: number): Promise<void> {
  await db.deleteFrom('thing_categories').where('id', '=', id).execute();
}

/** How many models a category has and the first `limit` of their names. */
export async function modelsOfCategory(
  db: Db,
  categoryId: number,
  limit: number,
): Promise<{ count: number; names: string[] }> {
  const { count } = await db
    .selectFrom('thing_models')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('category_id', '=', categoryId)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('thing_models')
    .select('name')
    .where('category_id', '=', categoryId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return { count: Number(count), names: rows.map((r) => r.name) };
}

// ---- category abilities -------------------------------------------------------------------------

export interface AbilityValues {
  identifier: string;
  name: string;
  unit: string;
  dataType: DataType;
  aggregator: Aggregator;
  cumulative: boolean;
  enumOptions: CategoryAbility['enumOptions'];
  sort: number;
}

const toCategoryAbility = (row: Selectable<ThingCategoryAbilitiesTable>): CategoryAbility => ({
  id: row.id,
  categoryId: row.category_id,
  identifier: row.identifier,
  name: row.name,
  unit: row.unit,
  dataType: row.data_type as DataType,
  aggregator: row.aggregator as Aggregator,
  cumulative: row.cumulative !== 0,
  enumOptions: parseJson(row.enum_options, []),
  sort: row.sort,
});

export async function listCategoryAbilities(db: Db, categoryId: number): Promise<CategoryAbility[]> {
  const rows = await db
    .selectFrom('thing_category_abilities')
    .selectAll()
    .where('category_id', '=', categoryId)
    .orderBy('sort')
    .orderBy('id')
    .execute();
  return rows.map(toCategoryAbility);
}

export async function findCategoryAbility(db: Db, id: number): Promise<CategoryAbility | undefined> {
  const row = await db
    .selectFrom('thing_category_abilities')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toCategoryAbility(row);
}

export async function findCategoryAbilityByIdentifier(
  db: Db,
  categoryId: number,
  identifier: string,
): Promise<CategoryAbility | undefined> {
  const row = await db
    .selectFrom('thing_category_abilities')
    .selectAll()
    .where('category_id', '=', categoryId)
    .where('identifier', '=', identifier)
    .executeTakeFirst();
  return row && toCategoryAbility(row);
}

export async function insertCategoryAbility(
  db: Db,
  categoryId: number,
  values: AbilityValues,
  now: string,
): Promise<CategoryAbility> {
  const row = await db
    .insertInto('thing_category_abilities')
    .values({
      category_id: categoryId,
      identifier: values.identifier,
      name: values.name,
      unit: values.unit,
      data_type: values.dataType,
      aggregator: values.aggregator,
      cumulative: values.cumulative ? 1 : 0,
      enum_options: JSON.stringify(values.enumOptions),
      sort: values.sort,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toCategoryAbility(row);
}

export async function updateCategoryAbility(
  db: Db,
  id: number,
  values: Omit<AbilityValues, 'identifier'>,
  now: string,
): Promise<void> {
  await db
    .updateTable('thing_category_abilities')
    .set({
      name: values.name,
      unit: values.unit,
      data_type: values.dataType,
      aggregator: values.aggregator,
      cumulative: values.cumulative ? 1 : 0,
      enum_options: JSON.stringify(values.enumOptions),
      sort: values.sort,
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

/** Deletes the ability and, by cascade, the models' overrides and things' removals of it. */
export async function deleteCategoryAbility(db: Db, id: number): Promise<void> {
  await db.deleteFrom('thing_category_abilities').where('id', '=', id).execute();
}

// ---- effective abilities ------------------------------------------------------------------------

interface EffectiveRow {
  ability_id: number;
  category_id: number;
  identifier: string;
  name: string;
  unit: string;
  data_type: string;
  aggregator: string;
  cumulative: number | string;
  enum_options: string;
  sort: number | string;
  overridden: number | string;
}

const toEffective = (row: EffectiveRow): EffectiveAbility => ({
  abilityId: row.ability_id,
  categoryId: row.category_id,
  identifier: row.identifier,
  name: row.name,
  unit: row.unit,
  dataType: row.data_type as DataType,
  aggregator: row.aggregator as Aggregator,
  cumulative: Number(row.cumulative) !== 0,
  enumOptions: parseJson(row.enum_options, []),
  sort: Number(row.sort),
  overridden: Number(row.overridden) !== 0,
});

/**
 * The columns of an ability as a model sees it: the override's value where it has one, the
 * category's otherwise. Needs `a` (category ability) and `o` (left-joined override) in scope.
 */
const effectiveColumns = [
  sql<number>`a.id`.as('ability_id'),
  sql<number>`a.category_id`.as('category_id'),
  sql<string>`a.identifier`.as('identifier'),
  sql<string>`coalesce(o.name, a.name)`.as('name'),
  sql<string>`coalesce(o.unit, a.unit)`.as('unit'),
  sql<string>`a.data_type`.as('data_type'),
  sql<string>`coalesce(o.aggregator, a.aggregator)`.as('aggregator'),
  sql<number>`coalesce(o.cumulative, a.cumulative)`.as('cumulative'),
  sql<string>`a.enum_options`.as('enum_options'),
  sql<number>`coalesce(o.sort, a.sort)`.as('sort'),
  sql<number>`case when o.model_id is null then 0 else 1 end`.as('overridden'),
] as const;

/** The abilities of a model: its category's, with its overrides applied. One statement. */
export async function effectiveAbilitiesOfModel(db: Db, modelId: number): Promise<EffectiveAbility[]> {
  const rows = await db
    .selectFrom('thing_models as m')
    .innerJoin('thing_category_abilities as a', 'a.category_id', 'm.category_id')
    .leftJoin('thing_model_abilities as o', (join) =>
      join.onRef('o.model_id', '=', 'm.id').onRef('o.ability_id', '=', 'a.id'),
    )
    .select(effectiveColumns)
    .where('m.id', '=', modelId)
    .orderBy(sql`coalesce(o.sort, a.sort)`)
    .orderBy('a.id')
    .execute();
  return rows.map(toEffective);
}

/**
 * The abilities of each thing: its model's effective abilities minus those removed from the
 * thing. One statement with joins for any number of things.
 */
export async function effectiveAbilitiesOfThings(
  db: Db,
  thingIds: readonly number[],
): Promise<Map<number, EffectiveAbility[]>> {
  const result = new Map<number, EffectiveAbility[]>(thingIds.map((id) => [id, []]));
  if (thingIds.length === 0) return result;
  const rows = await db
    .selectFrom('things as t')
    .innerJoin('thing_models as m', 'm.id', 't.model_id')
    .innerJoin('thing_category_abilities as a', 'a.category_id', 'm.category_id')
    .leftJoin('thing_model_abilities as o', (join) =>
      join.onRef('o.model_id', '=', 'm.id').onRef('o.ability_id', '=', 'a.id'),
    )
    .leftJoin('thing_ability_removals as r', (join) =>
      join.onRef('r.thing_id', '=', 't.id').onRef('r.ability_id', '=', 'a.id'),
    )
    .select([sql<number>`t.id`.as('thing_id'), ...effectiveColumns])
    .where('t.id', 'in', [...new Set(thingIds)])
    .where('r.thing_id', 'is', null)
    .orderBy('t.id')
    .orderBy(sql`coalesce(o.sort, a.sort)`)
    .orderBy('a.id')
    .execute();
  for (const row of rows) result.get(row.thing_id)?.push(toEffective(row));
  return result;
}

// ---- model overrides ----------------------------------------------------------------------------

export interface OverrideValues {
  name: string | null;
  unit: string | null;
  aggregator: Aggregator | null;
  cumulative: boolean | null;
  sort: number | null;
}

export async function findModelOverride(
  db: Db,
  modelId: number,
  abilityId: number,
): Promise<OverrideValues | undefined> {
  const row = await db
    .selectFrom('thing_model_abilities')
    .selectAll()
    .where('model_id', '=', modelId)
    .where('ability_id', '=', abilityId)
    .executeTakeFirst();
  return (
    row && {
      name: row.name,
      unit: row.unit,
      aggregator: row.aggregator as Aggregator | null,
      cumulative: row.cumulative === null ? null : row.cumulative !== 0,
      sort: row.sort,
    }
  );
}

export async function upsertModelOverride(
  db: Db,
  modelId: number,
  abilityId: number,
  values: OverrideValues,
  now: string,
): Promise<void> {
  const columns = {
    name: values.name,
    unit: values.unit,
    aggregator: values.aggregator,
    cumulative: values.cumulative === null ? null : values.cumulative ? 1 : 0,
    sort: values.sort,
    updated_at: now,
  };
  await db
    .insertInto('thing_model_abilities')
    .values({ model_id: modelId, ability_id: abilityId, ...columns })
    .onConflict((oc) => oc.columns(['model_id', 'ability_id']).doUpdateSet(columns))
    .execute();
}

export async function deleteModelOverrides(db: Db, modelId: number, abilityId?: number): Promise<void> {
  let query = db.deleteFrom('thing_model_abilities').where('model_id', '=', modelId);
  if (abilityId !== undefined) query = query.where('ability_id', '=', abilityId);
  await query.execute();
}

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

export async function findModelIdByName(
  db: Db,
  categoryId: number,
  name: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('thing_models')
    .select('id')
    .where('category_id', '=', categoryId)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst();
  return row?.id;
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

/** Deletes the model and, by cascade, its overrides. */
export async function deleteModel(db: Db, id: number): Promise<void> {
  await db.deleteFrom('thing_models').where('id', '=', id).execute();
}

/** How many things use a model and the first `limit` of their names. */
export async function thingsOfModel(
  db: Db,
  modelId: number,
  limit: number,
): Promise<{ count: number; names: string[] }> {
  const { count } = await db
    .selectFrom('things')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('model_id', '=', modelId)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('things')
    .select('name')
    .where('model_id', '=', modelId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return { count: Number(count), names: rows.map((r) => r.name) };
}

// ---- things -------------------------------------------------------------------------------------

interface ThingRow {
  id: number;
  identifier: string;
  name: string;
  description: string;
  model_id: number;
  model_name: string;
  category_id: number;
  category_name: string;
  setting: string;
  created_at: string;
  updated_at: string;
}

const toThing = (row: ThingRow): Thing => {
  const setting = parseJson<{ attributes?: unknown }>(row.setting, {});
  return {
    id: row.id,
    identifier: row.identifier,
    name: row.name,
    description: row.description,
    modelId: row.model_id,
    modelName: row.model_name,
    categoryId: row.category_id,
    categoryName: row.category_name,
    setting: {
      attributes: Array.isArray(setting.attributes) ? (setting.attributes as ThingAttribute[]) : [],
    },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
};

const thingsBase = (db: Db) =>
  db
    .selectFrom('things as t')
    .innerJoin('thing_models as m', 'm.id', 't.model_id')
    .innerJoin('thing_categories as c', 'c.id', 'm.category_id');

const thingColumns = [
  't.id',
  't.identifier',
  't.name',
  't.description',
  't.model_id',
  'm.name as model_name',
  'm.category_id',
  'c.name as category_name',
  't.setting',
  't.created_at',
  't.updated_at',
] as const;

export interface ThingFilters {
  name?: string;
  categoryId?: number;
  modelId?: number;
}

const filteredThings = (db: Db, query: ThingFilters) => {
  let base = thingsBase(db);
  const { name } = query;
  if (name)
    base = base.where((eb) => eb.or([nameContains('t.name', name), nameContains('t.identifier', name)]));
  if (query.categoryId !== undefined) base = base.where('m.category_id', '=', query.categoryId);
  if (query.modelId !== undefined) base = base.where('t.model_id', '=', query.modelId);
  return base;
};

/**
 * Ids of every thing that passes the filters in the device list's order: natural by name (1#, 2#,
 * … 10#, the console's comparator), ties by id. Sorted here, not in SQL: neither dialect collates
 * numbers naturally; a plant's few thousand names sort in milliseconds.
 */
export async function listThingIds(db: Db, query: ThingFilters): Promise<number[]> {
  const rows = await filteredThings(db, query).select(['t.id', 't.name']).execute();
  rows.sort((a, b) => naturalCompare(a.name, b.name) || a.id - b.id);
  return rows.map((r) => r.id);
}

/** The things with these ids (at most a page of them), ascending by id. */
export async function findThings(db: Db, ids: readonly number[]): Promise<Thing[]> {
  if (ids.length === 0) return [];
  const rows = await thingsBase(db)
    .select(thingColumns)
    .where('t.id', 'in', [...ids])
    .orderBy('t.id')
    .execute();
  return rows.map(toThing);
}

/** A page of the things that pass the filters, in natural order of their names (listThingIds). */
export async function listThings(db: Db, query: PageArgs & ThingFilters): Promise<Rows<Thing>> {
  const ids = await listThingIds(db, query);
  const start = offset(query);
  return { list: await findThingsInOrder(db, ids.slice(start, start + query.pageSize)), total: ids.length };
}

/** The things with these ids (at most a page of them), in the order of `ids`. */
export async function findThingsInOrder(db: Db, ids: readonly number[]): Promise<Thing[]> {
  const byId = new Map((await findThings(db, ids)).map((t) => [t.id, t]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function findThing(db: Db, id: number): Promise<Thing | undefined> {
  const row = await thingsBase(db).select(thingColumns).where('t.id', '=', id).executeTakeFirst();
  return row && toThing(row);
}

export async function findThingByIdentifier(db: Db, identifier: string): Promise<Thing | undefined> {
  const row = await thingsBase(db)
    .select(thingColumns)
    .where('t.identifier', '=', identifier)
    .executeTakeFirst();
  return row && toThing(row);
}

/** Uses the unique index on access_token. */
export async function findThingByToken(db: Db, accessToken: string): Promise<Thing | undefined> {
  const row = await thingsBase(db)
    .select(thingColumns)
    .where('t.access_token', '=', accessToken)
    .executeTakeFirst();
  return row && toThing(row);
}

/** Which of `identifiers` are taken already (case-sensitive, as the unique index). */
export async function existingIdentifiers(db: Db, identifiers: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  const unique = [...new Set(identifiers)];
  // Chunked so a big import stays under every driver's bound-parameter limit.
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await db
      .selectFrom('things')
      .select('identifier')
      .where('identifier', 'in', unique.slice(i, i + 500))
      .execute();
    for (const row of rows) found.add(row.identifier);
  }
  return found;
}

export interface ThingValues {
  identifier: string;
  name: string;
  description: string;
  modelId: number;
  attributes: ThingAttribute[];
}

export async function insertThings(
  db: Db,
  things: readonly (ThingValues & { accessToken: string })[],
  now: string,
): Promise<number[]> {
  const ids: number[] = [];
  // SQLite answers at once: an import of 10,000 rows hands the event loop over between statements.
  const pause = slicer();
  // 9 columns a row: 100 rows stay well below SQLite's and PostgreSQL's parameter limits.
  for (let i = 0; i < things.length; i += 100) {
    await pause();
    const rows = await db
      .insertInto('things')
      .values(
        things.slice(i, i + 100).map((t) => ({
          identifier: t.identifier,
          name: t.name,
          description: t.description,
          model_id: t.modelId,
          setting: JSON.stringify({ attributes: t.attributes }),
          access_token: t.accessToken,
          created_at: now,
          updated_at: now,
        })),
      )
      .returning('id')
      .execute();
    ids.push(...rows.map((r) => r.id));
  }
  return ids;
}

export async function updateThing(db: Db, id: number, values: ThingValues, now: string): Promise<void> {
  await db
    .updateTable('things')
    .set({
      identifier: values.identifier,
      name: values.name,
      description: values.description,
      model_id: values.modelId,
      setting: JSON.stringify({ attributes: values.attributes }),
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

/** Deletes the thing and, by cascade, its ability removals and region bindings. */
export async function deleteThing(db: Db, id: number): Promise<void> {
  await db.deleteFrom('things').where('id', '=', id).execute();
}

export async function findAccessToken(db: Db, thingId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('things')
    .select('access_token')
    .where('id', '=', thingId)
    .executeTakeFirst();
  return row?.access_token;
}

export async function setAccessToken(
  db: Db,
  thingId: number,
  accessToken: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('things')
    .set({ access_token: accessToken, updated_at: now })
    .where('id', '=', thingId)
    .execute();
}

// ---- ability removals ---------------------------------------------------------------------------

export async function insertAbilityRemovals(
  db: Db,
  thingId: number,
  abilityIds: readonly number[],
  now: string,
): Promise<void> {
  if (abilityIds.length === 0) return;
  await db
    .insertInto('thing_ability_removals')
    .values(abilityIds.map((abilityId) => ({ thing_id: thingId, ability_id: abilityId, created_at: now })))
    .onConflict((oc) => oc.columns(['thing_id', 'ability_id']).doNothing())
    .execute();
}

/** Forgets the removals of the given things (their model moved to another category). */
export async function deleteAbilityRemovals(db: Db, thingIds: readonly number[]): Promise<void> {
  if (thingIds.length === 0) return;
  await db.deleteFrom('thing_ability_removals').where('thing_id', 'in', thingIds).execute();
}

/** Forgets the removals of every thing of a model. */
export async function deleteAbilityRemovalsOfModel(db: Db, modelId: number): Promise<void> {
  await db
    .deleteFrom('thing_ability_removals')
    .where('thing_id', 'in', (eb) => eb.selectFrom('things').select('id').where('model_id', '=', modelId))
    .execute();
}

/** The given access tokens that some thing already has (unique index on access_token). */
export async function existingAccessTokens(db: Db, tokens: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  const unique = [...new Set(tokens)];
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await db
      .selectFrom('things')
      .select('access_token')
      .where('access_token', 'in', unique.slice(i, i + 500))
      .execute();
    for (const row of rows) found.add(row.access_token);
  }
  return found;
}

/** Every region as a tree node: what an import resolves region names and paths against. */
export async function regionNodes(db: Db): Promise<{ id: number; parentId: number | null; name: string }[]> {
  const rows = await db
    .selectFrom('regions')
    .select(['id', 'parent_id', 'name'])
    .orderBy('sort')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, parentId: r.parent_id, name: r.name }));
}

/** Binds each thing to its region (things just created: none is bound yet). */
export async function bindToRegions(
  db: Db,
  bindings: readonly { thingId: number; regionId: number }[],
  now: string,
): Promise<void> {
  for (let i = 0; i < bindings.length; i += 500) {
    await db
      .insertInto('region_things')
      .values(
        bindings
          .slice(i, i + 500)
          .map((b) => ({ region_id: b.regionId, thing_id: b.thingId, created_at: now })),
      )
      .execute();
  }
}
