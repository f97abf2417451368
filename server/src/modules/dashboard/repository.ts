import type { Db } from '../../db/sql.ts';

export interface PlacementRow {
  id: number;
  resourceType: 'thing' | 'region';
  resourceId: number;
  name: string;
  x: number;
  y: number;
}

export interface ImageRow {
  type: string;
  width: number;
  height: number;
  size: number;
  version: string;
  updatedBy: string;
  updatedAt: string;
}

const IMAGE_ID = 1;

export async function findImage(db: Db): Promise<ImageRow | undefined> {
  const row = await db
    .selectFrom('dashboard_map_image')
    .select(['type', 'width', 'height', 'size', 'version', 'updated_by', 'updated_at'])
    .where('id', '=', IMAGE_ID)
    .executeTakeFirst();
  return (
    row && {
      type: row.type,
      width: row.width,
      height: row.height,
      size: row.size,
      version: row.version,
      updatedBy: row.updated_by,
      updatedAt: row.updated_at,
    }
  );
}

export async function imageBytes(
  db: Db,
): Promise<{ type: string; version: string; bytes: Uint8Array } | undefined> {
  return db
    .selectFrom('dashboard_map_image')
    .select(['type', 'version', 'bytes'])
    .where('id', '=', IMAGE_ID)
    .executeTakeFirst();
}

export async function saveImage(db: Db, image: ImageRow & { bytes: Uint8Array }): Promise<void> {
  const values = {
    type: image.type,
    bytes: image.bytes,
    width: image.width,
    height: image.height,
    size: image.size,
    version: image.version,
    updated_by: image.updatedBy,
    updated_at: image.updatedAt,
  };
  await db
    .insertInto('dashboard_map_image')
    .values({ id: IMAGE_ID, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}

export async function deleteImage(db: Db): Promise<boolean> {
  const result = await db.deleteFrom('dashboard_map_image').where('id', '=', IMAGE_ID).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Markers with the current name of what they mark (the foreign keys keep both present). */
export async function listPlacements(db: Db, id?: number): Promise<PlacementRow[]> {
  let query = db
    .selectFrom('dashboard_placements as p')
    .leftJoin('things as t', 't.id', 'p.thing_id')
    .leftJoin('regions as r', 'r.id', 'p.region_id')
    .select([
      'p.id',
      'p.thing_id',
      'p.region_id',
      'p.x',
      'p.y',
      't.name as thingName',
      'r.name as regionName',
    ])
    .orderBy('p.id');
  if (id !== undefined) query = query.where('p.id', '=', id);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    resourceType: r.thing_id !== null ? 'thing' : 'region',
    resourceId: (r.thing_id ?? r.region_id) as number,
    name: r.thingName ?? r.regionName ?? '',
    x: Number(r.x),
    y: Number(r.y),
  }));
}

export async function countPlacements(db: Db): Promise<number> {
  const row = await db
    .selectFrom('dashboard_placements')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Places a thing or region, or moves it when it is already on the map; answers the marker's id.
 * One statement against the unique index, so two placements of one marker at once both land
 * (the later position wins) instead of the second failing on a duplicate key.
 */
export async function upsertPlacement(
  db: Db,
  input: { resourceType: 'thing' | 'region'; resourceId: number; x: number; y: number },
  now: string,
): Promise<number> {
  const column = input.resourceType === 'thing' ? 'thing_id' : 'region_id';
  const row = await db
    .insertInto('dashboard_placements')
    .values({
      thing_id: input.resourceType === 'thing' ? input.resourceId : null,
      region_id: input.resourceType === 'region' ? input.resourceId : null,
      x: input.x,
      y: input.y,
      updated_at: now,
    })
    .onConflict((oc) => oc.column(column).doUpdateSet({ x: input.x, y: input.y, updated_at: now }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function movePlacement(
  db: Db,
  id: number,
  at: { x: number; y: number },
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('dashboard_placements')
    .set({ x: at.x, y: at.y, updated_at: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deletePlacement(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('dashboard_placements').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
