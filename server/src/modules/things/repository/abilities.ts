import type { Aggregator, CategoryAbility, DataType, EffectiveAbility } from '@kilowatch/contract';
import { type Selectable, sql } from 'kysely';
import type { ThingCategoryAbilitiesTable } from '../../../db/schema.ts';
import type { Db } from '../../../db/sql.ts';
import { parseJson } from './rows.ts';

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

/** The one mapping between an ability's fields and its columns, both ways (effective rows too). */
interface AbilityColumns {
  identifier: string;
  name: string;
  unit: string;
  data_type: string;
  aggregator: string;
  cumulative: number | string;
  enum_options: string;
  sort: number | string;
}

const fromColumns = (row: AbilityColumns): AbilityValues => ({
  identifier: row.identifier,
  name: row.name,
  unit: row.unit,
  dataType: row.data_type as DataType,
  aggregator: row.aggregator as Aggregator,
  cumulative: Number(row.cumulative) !== 0,
  enumOptions: parseJson(row.enum_options, []),
  sort: Number(row.sort),
});

const toColumns = (values: Omit<AbilityValues, 'identifier'>) => ({
  name: values.name,
  unit: values.unit,
  data_type: values.dataType,
  aggregator: values.aggregator,
  cumulative: values.cumulative ? 1 : 0,
  enum_options: JSON.stringify(values.enumOptions),
  sort: values.sort,
});

const toCategoryAbility = (row: Selectable<ThingCategoryAbilitiesTable>): CategoryAbility => ({
  id: row.id,
  categoryId: row.category_id,
  ...fromColumns(row),
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
      ...toColumns(values),
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
    .set({ ...toColumns(values), updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Deletes the ability and, by cascade, the models' overrides and things' removals of it. */
export async function deleteCategoryAbility(db: Db, id: number): Promise<void> {
  await db.deleteFrom('thing_category_abilities').where('id', '=', id).execute();
}

// ---- effective abilities ------------------------------------------------------------------------

interface EffectiveRow extends AbilityColumns {
  ability_id: number;
  category_id: number;
  overridden: number | string;
}

const toEffective = (row: EffectiveRow): EffectiveAbility => ({
  abilityId: row.ability_id,
  categoryId: row.category_id,
  ...fromColumns(row),
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
