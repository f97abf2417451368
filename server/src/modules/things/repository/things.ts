import { naturalCompare, type Thing, type ThingAttribute } from '@kilowatch/contract';

import type { Db } from '../../../db/sql.ts';
import { slicer } from '../../../shared/slices.ts';
import { nameContains, offset, type PageArgs, parseJson, type Rows } from './rows.ts';

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
