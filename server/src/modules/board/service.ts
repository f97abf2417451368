import {
  BOARD_DEFAULT_INTERVAL_S,
  BOARD_MAX_PAGES,
  type BoardChartType,
  type BoardComponent,
  type BoardComponentInput,
  type BoardComponentPatch,
  type BoardLayouts,
  type BoardPage,
  type BoardPageInput,
  type BoardPagePatch,
} from '@kilowatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/index.ts';
import type { Db } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import type { Catalog } from '../catalog/index.ts';
import { checkComponent, createComponentGrid } from '../component-grid/index.ts';
import type { RegionService } from '../regions/index.ts';
import * as repo from './repository.ts';

export interface BoardDeps {
  db: Kysely<DB>;
  /** Checks a component's thing or region and its metrics (the KPI component rules). */
  catalog: Pick<Catalog, 'select' | 'categoryAbilities' | 'categoryNames'>;
  regions: Pick<RegionService, 'exists'>;
  now: () => number;
}

const pageNotFound = (id: number) =>
  new AppError('NOT_FOUND', 404, { id }, { message: 'board.pageNotFound' });
const unprocessable = (
  message: 'board.tooManyPages' | 'board.metricsRequired' | 'board.devicesOfRegion',
  params = {},
) => new AppError('UNPROCESSABLE', 422, params, { message });

/**
 * The workshop data board (docs/board.md): pages with their weight, interval and region, each a
 * grid of components in the KPI report component model, plus device tiles of the page's region.
 */
export function createBoardService(deps: BoardDeps) {
  const { db, now } = deps;
  const stamp = () => new Date(now()).toISOString();
  const grid = createComponentGrid<'pageId', BoardChartType>({
    table: 'board_components',
    ownerColumn: 'page_id',
    ownerKey: 'pageId',
    messages: {
      notFound: 'board.componentNotFound',
      tooMany: 'board.tooManyComponents',
      unknownComponent: 'board.unknownComponent',
    },
    now,
  });

  async function pageOf(trx: Db, id: number): Promise<BoardPage> {
    const [page] = repo.toPages(await repo.pageRows(trx, id));
    if (!page) throw pageNotFound(id);
    return page;
  }

  async function pageRow(trx: Db, id: number) {
    const row = await trx.selectFrom('board_pages').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw pageNotFound(id);
    return row;
  }

  async function checkRegion(id: number) {
    if (!(await deps.regions.exists(id))) {
      throw new AppError('NOT_FOUND', 404, { id }, { message: 'region.unknown' });
    }
  }

  async function checkCategory(id: number | null | undefined) {
    if (id == null) return;
    if (!(await deps.catalog.categoryNames([id])).has(id))
      throw new AppError('NOT_FOUND', 404, { id }, { message: 'things.categoryNotFound' });
  }

  /**
   * Charts follow the KPI rules (a thing or a region, 1–8 known metrics, formulas that parse);
   * device tiles look at a region (the page's when none is named) and may name the values shown.
   */
  async function checkBoardComponent(
    input: Pick<BoardComponentInput, 'chartType' | 'params' | 'metrics'>,
    pageRegionId: number,
  ) {
    if (input.chartType === 'devices') {
      if (input.params.thingId != null) throw unprocessable('board.devicesOfRegion');
      const regionId = input.params.regionId ?? pageRegionId;
      await checkRegion(regionId);
      if (input.metrics.length > 0)
        await checkComponent(deps.catalog, { params: { regionId }, metrics: input.metrics });
      return;
    }
    if (input.metrics.length === 0) throw unprocessable('board.metricsRequired');
    await checkComponent(deps.catalog, input);
  }

  return {
    /** Every page in display order (heaviest first, then the oldest) with its share of the rotation. */
    async pages(): Promise<BoardPage[]> {
      return repo.toPages(await repo.pageRows(db));
    },

    async createPage(input: BoardPageInput): Promise<BoardPage> {
      await checkRegion(input.regionId);
      await checkCategory(input.categoryId);
      return db.transaction().execute(async (trx) => {
        const count = await trx
          .selectFrom('board_pages')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow();
        if (Number(count.n) >= BOARD_MAX_PAGES)
          throw unprocessable('board.tooManyPages', { max: BOARD_MAX_PAGES });
        const at = stamp();
        const { id } = await trx
          .insertInto('board_pages')
          .values({
            name: input.name.trim(),
            region_id: input.regionId,
            successor: input.successor === false ? 0 : 1,
            category_id: input.categoryId ?? null,
            interval_s: input.interval ?? BOARD_DEFAULT_INTERVAL_S,
            weight: input.weight ?? 1,
            enabled: input.enabled === false ? 0 : 1,
            created_at: at,
            updated_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return pageOf(trx, id);
      });
    },

    async patchPage(id: number, patch: BoardPagePatch): Promise<BoardPage> {
      if (patch.regionId !== undefined) await checkRegion(patch.regionId);
      await checkCategory(patch.categoryId);
      return db.transaction().execute(async (trx) => {
        await pageRow(trx, id);
        await trx
          .updateTable('board_pages')
          .set({
            ...(patch.name !== undefined ? { name: patch.name.trim() } : {}),
            ...(patch.regionId !== undefined ? { region_id: patch.regionId } : {}),
            ...(patch.successor !== undefined ? { successor: patch.successor ? 1 : 0 } : {}),
            ...(patch.categoryId !== undefined ? { category_id: patch.categoryId } : {}),
            ...(patch.interval !== undefined ? { interval_s: patch.interval } : {}),
            ...(patch.weight !== undefined ? { weight: patch.weight } : {}),
            ...(patch.enabled !== undefined ? { enabled: patch.enabled ? 1 : 0 } : {}),
            updated_at: stamp(),
          })
          .where('id', '=', id)
          .execute();
        return pageOf(trx, id);
      });
    },

    /** Sets a page's weight; answers every page, since the order and every share may change. */
    async setWeight(id: number, weight: number): Promise<BoardPage[]> {
      return db.transaction().execute(async (trx) => {
        await pageRow(trx, id);
        await trx
          .updateTable('board_pages')
          .set({ weight, updated_at: stamp() })
          .where('id', '=', id)
          .execute();
        return repo.toPages(await repo.pageRows(trx));
      });
    },

    async removePage(id: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await pageRow(trx, id);
        await grid.removeAll(trx, [id]);
        await trx.deleteFrom('board_pages').where('id', '=', id).execute();
      });
    },

    async components(pageId: number): Promise<BoardComponent[]> {
      await pageRow(db, pageId);
      return grid.list(db, pageId);
    },

    async addComponent(pageId: number, input: BoardComponentInput): Promise<BoardComponent> {
      const page = await pageRow(db, pageId);
      await checkBoardComponent(input, page.region_id);
      return db.transaction().execute(async (trx) => {
        await pageRow(trx, pageId);
        return grid.add(trx, pageId, input);
      });
    },

    async patchComponent(
      pageId: number,
      componentId: number,
      patch: BoardComponentPatch,
    ): Promise<BoardComponent> {
      const page = await pageRow(db, pageId);
      const before = await grid.get(db, pageId, componentId);
      if (patch.params !== undefined || patch.metrics !== undefined || patch.chartType !== undefined) {
        await checkBoardComponent(
          {
            chartType: patch.chartType ?? before.chartType,
            params: patch.params ?? before.params,
            metrics: patch.metrics ?? before.metrics,
          },
          page.region_id,
        );
      }
      return db.transaction().execute((trx) => grid.patch(trx, pageId, componentId, patch));
    },

    /** Saves the grid: each listed component's place (422 naming one of another page). */
    async saveLayouts(pageId: number, layouts: BoardLayouts): Promise<BoardComponent[]> {
      return db.transaction().execute(async (trx) => {
        await pageRow(trx, pageId);
        return grid.saveLayouts(trx, pageId, layouts);
      });
    },

    async removeComponent(pageId: number, componentId: number): Promise<void> {
      await pageRow(db, pageId);
      await grid.remove(db, pageId, componentId);
    },
  };
}

export type BoardService = ReturnType<typeof createBoardService>;
