import {
  type ChartType,
  REPORT_MAX_DEPTH,
  REPORT_ROOT,
  type ReportChildInput,
  type ReportComponent,
  type ReportComponentInput,
  type ReportComponentPatch,
  type ReportLayouts,
  type ReportNode,
  type ReportPatch,
} from '@kilowatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/index.ts';
import type { Db } from '../../../db/sql.ts';
import { AppError } from '../../../errors.ts';
import type { Catalog } from '../../catalog/index.ts';
import { checkComponent, createComponentGrid } from '../../component-grid/index.ts';
import * as repo from './repository.ts';

export interface ReportsDeps {
  db: Kysely<DB>;
  /** Checks a component's thing or region and its metrics. */
  catalog: Pick<Catalog, 'select' | 'categoryAbilities'>;
  now: () => number;
}

/** Who is asking: admins may change published reports and take a publication back. */
export interface Actor {
  id: number;
  admin: boolean;
}

const notFound = (id: number) => new AppError('NOT_FOUND', 404, { id }, { message: 'reports.notFound' });
const unprocessable = (
  message:
    | 'reports.parentNotFolder'
    | 'reports.tooDeep'
    | 'reports.moveIntoItself'
    | 'reports.notReport'
    | 'reports.noTarget'
    | 'reports.badFormula',
  params = {},
) => new AppError('UNPROCESSABLE', 422, params, { message });

/**
 * KPI reports (spec §3, §7 /api/reports): the folder tree, report components and publication.
 * A published report is read-only for everyone but admins (409), and only an admin takes a
 * publication back, so a link handed round keeps showing what was published.
 */
export function createReportsService(deps: ReportsDeps) {
  const { db, now } = deps;
  const stamp = () => new Date(now()).toISOString();
  const grid = createComponentGrid<'reportId', ChartType>({
    table: 'report_components',
    ownerColumn: 'report_id',
    ownerKey: 'reportId',
    messages: {
      notFound: 'reports.notFound',
      tooMany: 'reports.tooManyComponents',
      unknownComponent: 'reports.unknownComponent',
    },
    now,
  });

  async function nodeOf(trx: Db, id: number): Promise<ReportNode> {
    const rows = await repo.allReports(trx);
    const row = rows.find((r) => r.id === id);
    if (!row) throw notFound(id);
    return repo.toNode(row, repo.levelOf(rows, id));
  }

  /** The report row `id`, which `actor` may change (409 when published and not an admin). */
  async function writableReport(trx: Db, id: number, actor: Actor) {
    const row = await repo.reportById(trx, id);
    if (!row) throw notFound(id);
    if (row.folder === 1) throw unprocessable('reports.notReport', { id });
    if (row.published_at !== null && !actor.admin) {
      throw new AppError('CONFLICT', 409, { name: row.name }, { message: 'reports.published' });
    }
    return row;
  }

  return {
    async tree(): Promise<ReportNode[]> {
      return repo.buildTree(await repo.allReports(db));
    },

    /** A folder or report under folder `parentId` (REPORT_ROOT: the top level), last among its siblings. */
    async createChild(parentId: number, input: ReportChildInput): Promise<ReportNode> {
      return db.transaction().execute(async (trx) => {
        const rows = await repo.allReports(trx);
        const parent = parentId === REPORT_ROOT ? null : rows.find((r) => r.id === parentId);
        if (parent === undefined) throw notFound(parentId);
        if (parent && parent.folder !== 1) throw unprocessable('reports.parentNotFolder');
        const level = parent ? repo.levelOf(rows, parent.id) + 1 : 1;
        if (level > REPORT_MAX_DEPTH) throw unprocessable('reports.tooDeep', { max: REPORT_MAX_DEPTH });
        const siblings = rows.filter((r) => r.parent_id === (parent?.id ?? null));
        const at = stamp();
        const { id } = await trx
          .insertInto('reports')
          .values({
            parent_id: parent?.id ?? null,
            name: input.name.trim(),
            folder: input.folder ? 1 : 0,
            sort: siblings.reduce((max, r) => Math.max(max, r.sort + 1), 0),
            published_at: null,
            published_by: null,
            created_at: at,
            updated_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return nodeOf(trx, id);
      });
    },

    async patch(id: number, patch: ReportPatch, actor: Actor): Promise<ReportNode> {
      return db.transaction().execute(async (trx) => {
        const rows = await repo.allReports(trx);
        const row = rows.find((r) => r.id === id);
        if (!row) throw notFound(id);
        // A folder holding a published report is as read-only as the report (docs/reports.md):
        // renaming or moving it would change where the report's readers find it.
        const subtree = repo.subtree(rows, id);
        const published = rows.find((r) => subtree.includes(r.id) && r.published_at !== null);
        if (published && !actor.admin) {
          throw new AppError('CONFLICT', 409, { name: published.name }, { message: 'reports.published' });
        }
        const change: { name?: string; parent_id?: number | null; sort?: number; updated_at: string } = {
          updated_at: stamp(),
        };
        if (patch.name !== undefined) change.name = patch.name.trim();
        if (patch.sort !== undefined) change.sort = patch.sort;
        if (patch.parentId !== undefined) {
          const parentId = patch.parentId === REPORT_ROOT ? null : patch.parentId;
          if (parentId !== null) {
            const parent = rows.find((r) => r.id === parentId);
            if (!parent) throw notFound(parentId);
            if (parent.folder !== 1) throw unprocessable('reports.parentNotFolder');
            const moved = subtree;
            if (moved.includes(parentId)) throw unprocessable('reports.moveIntoItself');
            const depthBelow = Math.max(...moved.map((m) => repo.levelOf(rows, m))) - repo.levelOf(rows, id);
            if (repo.levelOf(rows, parentId) + 1 + depthBelow > REPORT_MAX_DEPTH) {
              throw unprocessable('reports.tooDeep', { max: REPORT_MAX_DEPTH });
            }
          }
          change.parent_id = parentId;
        }
        await trx.updateTable('reports').set(change).where('id', '=', id).execute();
        return nodeOf(trx, id);
      });
    },

    /** Deletes `id` with its subtree and their components; answers how many nodes went. */
    async remove(id: number, actor: Actor): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const rows = await repo.allReports(trx);
        if (!rows.some((r) => r.id === id)) throw notFound(id);
        const ids = repo.subtree(rows, id);
        const published = rows.find((r) => ids.includes(r.id) && r.published_at !== null);
        if (published && !actor.admin) {
          throw new AppError('CONFLICT', 409, { name: published.name }, { message: 'reports.published' });
        }
        await grid.removeAll(trx, ids);
        // Deepest first: the parent reference never points at a row already gone.
        for (const one of [...ids].reverse()) await trx.deleteFrom('reports').where('id', '=', one).execute();
        return ids.length;
      });
    },

    /** Publishes (or, admins only, takes back) a report; publishing again keeps the first date. */
    async publish(id: number, published: boolean, actor: Actor): Promise<ReportNode> {
      return db.transaction().execute(async (trx) => {
        const row = await repo.reportById(trx, id);
        if (!row) throw notFound(id);
        if (row.folder === 1) throw unprocessable('reports.notReport', { id });
        if (!published && !actor.admin) {
          throw new AppError('FORBIDDEN', 403, {}, { message: 'reports.unpublishAdmin' });
        }
        if (published !== (row.published_at !== null)) {
          await trx
            .updateTable('reports')
            .set(
              published
                ? { published_at: stamp(), published_by: actor.id, updated_at: stamp() }
                : { published_at: null, published_by: null, updated_at: stamp() },
            )
            .where('id', '=', id)
            .execute();
        }
        return nodeOf(trx, id);
      });
    },

    /** A report's components, optionally those with a metric of `categoryId`. */
    async components(reportId: number, categoryId?: number): Promise<ReportComponent[]> {
      const row = await repo.reportById(db, reportId);
      if (!row) throw notFound(reportId);
      const all = await grid.list(db, reportId);
      return categoryId === undefined
        ? all
        : all.filter((c) => c.metrics.some((m) => m.categoryId === categoryId));
    },

    async addComponent(
      reportId: number,
      input: ReportComponentInput,
      actor: Actor,
    ): Promise<ReportComponent> {
      await checkComponent(deps.catalog, input);
      return db.transaction().execute(async (trx) => {
        await writableReport(trx, reportId, actor);
        return grid.add(trx, reportId, input);
      });
    },

    async patchComponent(
      reportId: number,
      componentId: number,
      patch: ReportComponentPatch,
      actor: Actor,
    ): Promise<ReportComponent> {
      const before = await grid.get(db, reportId, componentId);
      if (patch.params !== undefined || patch.metrics !== undefined) {
        await checkComponent(deps.catalog, {
          params: patch.params ?? before.params,
          metrics: patch.metrics ?? before.metrics,
        });
      }
      return db.transaction().execute(async (trx) => {
        await writableReport(trx, reportId, actor);
        return grid.patch(trx, reportId, componentId, patch);
      });
    },

    /** Saves the grid: each listed component's place (all of the report's, or 422 naming the stranger). */
    async saveLayouts(reportId: number, layouts: ReportLayouts, actor: Actor): Promise<ReportComponent[]> {
      return db.transaction().execute(async (trx) => {
        await writableReport(trx, reportId, actor);
        return grid.saveLayouts(trx, reportId, layouts);
      });
    },

    async removeComponent(reportId: number, componentId: number, actor: Actor): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await writableReport(trx, reportId, actor);
        await grid.remove(trx, reportId, componentId);
      });
    },

    /** A report (not a folder) with its components, for the export. */
    async reportWithComponents(reportId: number) {
      const row = await repo.reportById(db, reportId);
      if (!row) throw notFound(reportId);
      if (row.folder === 1) throw unprocessable('reports.notReport', { id: reportId });
      return { name: row.name, components: await grid.list(db, reportId) };
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
