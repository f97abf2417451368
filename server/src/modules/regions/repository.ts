import { naturalCompare, type Thing } from '@kilowatch/contract';
import type { Db } from '../../db/sql.ts';
import type { RegionRecord } from './tree.ts';

export async function listRegions(db: Db): Promise<RegionRecord[]> {
  const rows = await db
    .selectFrom('regions')
    .select(['id', 'parent_id', 'name', 'description', 'sort'])
    .orderBy('sort')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    parentId: r.parent_id,
    name: r.name,
    description: r.description,
    sort: r.sort,
  }));
}

export async function findRegion(db: Db, id: number): Promise<RegionRecord | undefined> {
  const row = await db
    .selectFrom('regions')
    .select(['id', 'parent_id', 'name', 'description', 'sort'])
    .where('id', '=', id)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      parentId: row.parent_id,
      name: row.name,
      description: row.description,
      sort: row.sort,
    }
  );
}

/** The next free `sort` among the children of `parentId` (roots when null). */
export async function nextSort(db: Db, parentId: number | null): Promise<number> {
  const row = await db
    .selectFrom('regions')
    .select((eb) => eb.fn.max<number | null>('sort').as('max'))
    .where('parent_id', parentId === null ? 'is' : '=', parentId)
    .executeTakeFirst();
  return row?.max === null || row?.max === undefined ? 0 : Number(row.max) + 1;
}

export async function insertRegion(
  db: Db,
  region: Omit<RegionRecord, 'id'>,
  now: string,
): Promise<RegionRecord> {
  const { id } = await db
    .insertInto('regions')
    .values({
      parent_id: region.parentId,
      name: region.name,
      description: region.description,
      sort: region.sort,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, ...region };
}

export async function updateRegion(
  db: Db,
  id: number,
  changes: { name: string; description?: string },
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('regions')
    .set({
      name: changes.name,
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      updated_at: now,
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function countChildren(db: Db, id: number): Promise<number> {
  const { count } = await db
    .selectFrom('regions')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('parent_id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Deletes a region; its bindings go with it (cascade), its video labels lose the region. */
export async function deleteRegion(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('regions').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function moveRegion(
  db: Db,
  move: { id: number; parentId: number | null; sort: number },
  now: string,
): Promise<void> {
  await db
    .updateTable('regions')
    .set({ parent_id: move.parentId, sort: move.sort, updated_at: now })
    .where('id', '=', move.id)
    .execute();
}

// ---- bindings -----------------------------------------------------------------------------------

/**
 * A bound thing without its category's name: the service names categories through the things
 * module, so no table of categories is read here.
 */
export type ThingRow = Omit<Thing, 'categoryName'>;

export interface BindingRow {
  regionId: number;
  regionName: string;
  thing: ThingRow;
}

const parseSetting = (text: string): Thing['setting'] => {
  try {
    const value = JSON.parse(text) as { attributes?: unknown };
    return {
      attributes: Array.isArray(value?.attributes)
        ? (value.attributes as Thing['setting']['attributes'])
        : [],
    };
  } catch {
    return { attributes: [] };
  }
};

/**
 * Things bound to the given regions (every region when `regionIds` is undefined), with their
 * model names; optionally only things of one category. Ordered by region, then
 * name in natural order.
 */
export async function listBindings(
  db: Db,
  { regionIds, categoryId }: { regionIds?: number[]; categoryId?: number },
): Promise<BindingRow[]> {
  if (regionIds?.length === 0) return [];
  let query = db
    .selectFrom('region_things')
    .innerJoin('regions', 'regions.id', 'region_things.region_id')
    .innerJoin('things', 'things.id', 'region_things.thing_id')
    .innerJoin('thing_models', 'thing_models.id', 'things.model_id')
    .select(['region_things.region_id', 'regions.name as region_name', ...THING_COLUMNS]);
  if (regionIds) query = query.where('region_things.region_id', 'in', regionIds);
  if (categoryId !== undefined) query = query.where('thing_models.category_id', '=', categoryId);
  const rows = await query.execute();
  // Names in natural order (1#, 2#, … 10#), which neither SQL dialect collates.
  rows.sort((a, b) => a.region_id - b.region_id || naturalCompare(a.name, b.name) || a.id - b.id);
  return rows.map((r) => ({
    regionId: r.region_id,
    regionName: r.region_name,
    thing: {
      id: r.id,
      identifier: r.identifier,
      name: r.name,
      description: r.description,
      modelId: r.model_id,
      modelName: r.model_name,
      categoryId: r.category_id,
      setting: parseSetting(r.setting),
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    },
  }));
}

/** A thing's columns as both binding reads select them (things joined to their model). */
const THING_COLUMNS = [
  'things.id',
  'things.identifier',
  'things.name',
  'things.description',
  'things.model_id',
  'thing_models.name as model_name',
  'thing_models.category_id',
  'things.setting',
  'things.created_at',
  'things.updated_at',
] as const;

/** Things bound to no region (optionally of one category), in natural order of names. */
export async function listUnboundThings(
  db: Db,
  { categoryId }: { categoryId?: number },
): Promise<ThingRow[]> {
  let query = db
    .selectFrom('things')
    .innerJoin('thing_models', 'thing_models.id', 'things.model_id')
    .select(THING_COLUMNS)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('region_things')
            .select('region_things.thing_id')
            .whereRef('region_things.thing_id', '=', 'things.id'),
        ),
      ),
    );
  if (categoryId !== undefined) query = query.where('thing_models.category_id', '=', categoryId);
  const rows = await query.execute();
  rows.sort((a, b) => naturalCompare(a.name, b.name) || a.id - b.id);
  return rows.map((r) => ({
    id: r.id,
    identifier: r.identifier,
    name: r.name,
    description: r.description,
    modelId: r.model_id,
    modelName: r.model_name,
    categoryId: r.category_id,
    setting: parseSetting(r.setting),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }));
}

/** Which of `ids` name existing things. */
export async function existingThingIds(db: Db, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('things').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/** Binds things to a region; binding one already bound is a no-op. */
export async function bindThings(db: Db, regionId: number, thingIds: number[], now: string): Promise<void> {
  if (thingIds.length === 0) return;
  await db
    .insertInto('region_things')
    .values(thingIds.map((thingId) => ({ region_id: regionId, thing_id: thingId, created_at: now })))
    .onConflict((oc) => oc.columns(['region_id', 'thing_id']).doNothing())
    .execute();
}

export async function unbindThings(db: Db, regionId: number, thingIds: number[]): Promise<number> {
  if (thingIds.length === 0) return 0;
  const result = await db
    .deleteFrom('region_things')
    .where('region_id', '=', regionId)
    .where('thing_id', 'in', thingIds)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
