import type { ExploreState, ExploreView } from '@kilowatch/contract';
import type { Selectable } from 'kysely';
import type { ExploreViewsTable } from '../../db/schema.ts';
import type { Db } from '../../db/sql.ts';

type Row = Selectable<ExploreViewsTable>;

const toView = (row: Row): ExploreView => ({
  id: row.id,
  name: row.name,
  state: JSON.parse(row.state) as ExploreState,
  createdAt: Date.parse(row.created_at),
  updatedAt: Date.parse(row.updated_at),
});

/** Every query names the owner: a view of another user is as absent as one never made. */
export const listViews = async (db: Db, ownerId: number): Promise<ExploreView[]> =>
  (
    await db
      .selectFrom('explore_views')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .orderBy('name')
      .orderBy('id')
      .execute()
  ).map(toView);

export const viewById = async (db: Db, ownerId: number, id: number): Promise<ExploreView | undefined> => {
  const row = await db
    .selectFrom('explore_views')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toView(row);
};

export const countViews = async (db: Db, ownerId: number): Promise<number> => {
  const row = await db
    .selectFrom('explore_views')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

export const insertView = async (
  db: Db,
  ownerId: number,
  name: string,
  state: ExploreState,
  at: string,
): Promise<number> => {
  const row = await db
    .insertInto('explore_views')
    .values({ owner_id: ownerId, name, state: JSON.stringify(state), created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
};

export const updateView = async (
  db: Db,
  ownerId: number,
  id: number,
  patch: { name?: string | undefined; state?: ExploreState | undefined },
  at: string,
): Promise<boolean> => {
  const result = await db
    .updateTable('explore_views')
    .set({
      ...(patch.name === undefined ? {} : { name: patch.name }),
      ...(patch.state === undefined ? {} : { state: JSON.stringify(patch.state) }),
      updated_at: at,
    })
    .where('owner_id', '=', ownerId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
};

export const deleteView = async (db: Db, ownerId: number, id: number): Promise<boolean> => {
  const result = await db
    .deleteFrom('explore_views')
    .where('owner_id', '=', ownerId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
};
