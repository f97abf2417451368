import {
  type Binding,
  REGION_MAX_DEPTH,
  type Region,
  type RegionInput,
  type RegionNode,
  type RegionOrder,
  type RegionUpdate,
  type Thing,
} from '@kilowatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import * as repo from './repository.ts';
import { applyOrder, buildTree, levelOf, type RegionRecord, subtreeIds } from './tree.ts';

const notFound = () => new AppError('NOT_FOUND', 404);
const toRegion = (r: RegionRecord): Region => ({ ...r });

export interface RegionServiceDeps {
  db: Kysely<DB>;
  now: () => number;
  /** Told after every write (committed or not): the catalog drops what it cached (names, bindings). */
  onChange?: () => void;
  /**
   * The names of the categories among `ids` (the things service's): a binding's thing carries its
   * category's name, and only the things module reads categories.
   */
  categoryNames: (ids: readonly number[]) => Promise<ReadonlyMap<number, string>>;
}

/** Region tree and thing bindings (spec §3 tree node, §7 Regions). */
export function createRegionService(deps: RegionServiceDeps) {
  const { db, now } = deps;
  const iso = () => new Date(now()).toISOString();

  async function changed<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } finally {
      deps.onChange?.();
    }
  }

  async function named(things: repo.ThingRow[]): Promise<Thing[]> {
    const names = await deps.categoryNames([...new Set(things.map((t) => t.categoryId))]);
    return things.map((t) => ({ ...t, categoryName: names.get(t.categoryId) ?? '' }));
  }

  /** Bindings with their things' category names. */
  async function bindingsOf(query: Parameters<typeof repo.listBindings>[1]): Promise<Binding[]> {
    const rows = await repo.listBindings(db, query);
    const things = await named(rows.map((r) => r.thing));
    return rows.map((r, i) => ({ ...r, thing: things[i] as Thing }));
  }

  async function requireRegion(id: number): Promise<RegionRecord> {
    const region = await repo.findRegion(db, id);
    if (!region) throw notFound();
    return region;
  }

  return {
    async tree({
      withThings,
      categoryId,
    }: {
      withThings?: boolean;
      categoryId?: number;
    }): Promise<RegionNode[]> {
      const regions = await repo.listRegions(db);
      if (!withThings) return buildTree(regions);
      const bindings = await repo.listBindings(db, { categoryId });
      return buildTree(
        regions,
        bindings.map((b) => ({
          regionId: b.regionId,
          thingId: b.thing.id,
          name: b.thing.name,
          description: b.thing.description,
        })),
      );
    },

    /** Things bound to no region: monitoring trees show them in a group of their own. */
    unbound: async ({ categoryId }: { categoryId?: number }): Promise<Thing[]> =>
      named(await repo.listUnboundThings(db, { categoryId })),

    async create(input: RegionInput): Promise<Region> {
      return changed(
        db.transaction().execute(async (trx) => {
          const parentId = input.parentId ?? null;
          if (parentId !== null) {
            const regions = await repo.listRegions(trx);
            const byId = new Map(regions.map((r) => [r.id, r]));
            if (!byId.has(parentId))
              throw new AppError('UNPROCESSABLE', 422, { id: parentId }, { message: 'region.unknown' });
            if ((levelOf(byId, parentId) ?? REGION_MAX_DEPTH) + 1 > REGION_MAX_DEPTH) {
              throw new AppError(
                'UNPROCESSABLE',
                422,
                { max: REGION_MAX_DEPTH },
                { message: 'region.tooDeep' },
              );
            }
          }
          const region = await repo.insertRegion(
            trx,
            {
              parentId,
              name: input.name,
              description: input.description ?? '',
              sort: await repo.nextSort(trx, parentId),
            },
            iso(),
          );
          return toRegion(region);
        }),
      );
    },

    async update(id: number, input: RegionUpdate): Promise<Region> {
      if (!(await changed(repo.updateRegion(db, id, input, iso())))) throw notFound();
      return toRegion(await requireRegion(id));
    },

    async remove(id: number): Promise<void> {
      await changed(
        db.transaction().execute(async (trx) => {
          if (!(await repo.findRegion(trx, id))) throw notFound();
          if ((await repo.countChildren(trx, id)) > 0) {
            throw new AppError('CONFLICT', 409, {}, { message: 'region.hasChildren' });
          }
          await repo.deleteRegion(trx, id);
        }),
      );
    },

    /** Moves and reorders in one transaction; the whole resulting tree is checked first. */
    async order(order: RegionOrder): Promise<RegionNode[]> {
      return changed(
        db.transaction().execute(async (trx) => {
          const regions = await repo.listRegions(trx);
          const result = applyOrder(regions, order);
          if ('problem' in result) {
            const { problem } = result;
            if (problem.kind === 'unknown') {
              throw new AppError('UNPROCESSABLE', 422, { id: problem.id }, { message: 'region.unknown' });
            }
            if (problem.kind === 'cycle')
              throw new AppError('UNPROCESSABLE', 422, {}, { message: 'region.cycle' });
            throw new AppError(
              'UNPROCESSABLE',
              422,
              { max: REGION_MAX_DEPTH },
              { message: 'region.tooDeep' },
            );
          }
          const at = iso();
          for (const move of order) await repo.moveRegion(trx, move, at);
          return buildTree(result.regions);
        }),
      );
    },

    /** Things bound to a region, and with `successor` to every region below it too. */
    async bindings(
      id: number,
      { categoryId, successor }: { categoryId?: number; successor?: boolean },
    ): Promise<Binding[]> {
      if (!successor) {
        // One region: a lookup by id, not the whole tree.
        if (!(await repo.findRegion(db, id))) throw notFound();
        return bindingsOf({ regionIds: [id], categoryId });
      }
      const regions = await repo.listRegions(db);
      if (!regions.some((r) => r.id === id)) throw notFound();
      return bindingsOf({ regionIds: subtreeIds(regions, id), categoryId });
    },

    async allBindings({ categoryId }: { categoryId?: number }): Promise<Binding[]> {
      return bindingsOf({ categoryId });
    },

    async bind(id: number, thingIds: number[]): Promise<Binding[]> {
      const unique = [...new Set(thingIds)];
      await changed(
        db.transaction().execute(async (trx) => {
          if (!(await repo.findRegion(trx, id))) throw notFound();
          const existing = await repo.existingThingIds(trx, unique);
          const missing = unique.filter((t) => !existing.has(t));
          if (missing.length) {
            throw new AppError(
              'UNPROCESSABLE',
              422,
              { ids: missing.join(', ') },
              { message: 'region.thingsUnknown' },
            );
          }
          await repo.bindThings(trx, id, unique, iso());
        }),
      );
      return bindingsOf({ regionIds: [id] });
    },

    async unbind(id: number, thingIds: number[]): Promise<Binding[]> {
      await requireRegion(id);
      await changed(repo.unbindThings(db, id, [...new Set(thingIds)]));
      return bindingsOf({ regionIds: [id] });
    },

    /** A region by id, or undefined (one row, for other domains that only need its name). */
    async find(id: number): Promise<Region | undefined> {
      const region = await repo.findRegion(db, id);
      return region && toRegion(region);
    },

    /** Whether a region exists (for other domains that refer to regions). */
    async exists(id: number): Promise<boolean> {
      return (await repo.findRegion(db, id)) !== undefined;
    },
  };
}

export type RegionService = ReturnType<typeof createRegionService>;
