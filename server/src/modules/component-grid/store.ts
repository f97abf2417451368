import {
  type ComponentLayout,
  type ComponentMetric,
  type ComponentParams,
  type ComponentYoy,
  REPORT_MAX_COMPONENTS,
} from '@kilowatch/contract';
import type { Selectable } from 'kysely';
import type { ComponentGridColumns } from '../../db/schema.ts';
import type { Db } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import type { MessageKey } from '../../i18n/index.ts';
import { fitted, nextPlace } from './rules.ts';

/** A grid's table and the name of its owner: a KPI report's components, a board page's. */
export interface GridSpec<Owner extends string> {
  table: 'report_components' | 'board_components';
  /** The owner's column (`report_id`, `page_id`) and its name in the answer (`reportId`, `pageId`). */
  ownerColumn: 'report_id' | 'page_id';
  ownerKey: Owner;
  /** The owner's wording of a missing component, one too many and a component of another owner. */
  messages: { notFound: MessageKey; tooMany: MessageKey; unknownComponent: MessageKey };
  now: () => number;
}

/** A component as the contract answers it (ReportComponent, BoardComponent). */
export type GridComponent<Owner extends string, Chart extends string> = { id: number } & {
  [key in Owner]: number;
} & {
  title: string;
  chartType: Chart;
  yoy: ComponentYoy;
  params: ComponentParams;
  metrics: ComponentMetric[];
  layout: ComponentLayout;
  updatedAt: number;
};

export interface GridComponentInput<Chart extends string> {
  title: string;
  chartType: Chart;
  yoy?: ComponentYoy;
  params: ComponentParams;
  metrics: ComponentMetric[];
  /** Absent: below the others, half the width (`nextPlace`). */
  layout?: ComponentLayout;
}

type Row = Selectable<ComponentGridColumns>;

/**
 * The store of one component grid (the KPI reports', the board's): its components' rows, read
 * in grid order and written with their place kept inside the 12 columns. Every call runs on the
 * database or transaction it is handed; what may be changed, and by whom, is the owner's check.
 */
export function createComponentGrid<Owner extends string, Chart extends string>(spec: GridSpec<Owner>) {
  type Component = GridComponent<Owner, Chart>;
  // The two tables differ only in the owner column's name, which the spec gives: Kysely is told
  // one of them, and every statement names `spec.table` and `spec.ownerColumn` at run time.
  const table = spec.table as 'report_components';
  const owner = spec.ownerColumn as 'report_id';
  const { messages } = spec;
  const stamp = () => new Date(spec.now()).toISOString();
  const notFound = (id: number) => new AppError('NOT_FOUND', 404, { id }, { message: messages.notFound });

  const toComponent = (row: Row, ownerId: number) =>
    ({
      id: row.id,
      [spec.ownerKey]: ownerId,
      title: row.title,
      chartType: row.chart_type as Chart,
      yoy: JSON.parse(row.yoy) as ComponentYoy,
      params: JSON.parse(row.params) as ComponentParams,
      metrics: JSON.parse(row.metrics) as ComponentMetric[],
      layout: { x: row.x, y: row.y, w: row.w, h: row.h },
      updatedAt: Date.parse(row.updated_at),
    }) as Component;

  const rowOf = (trx: Db, ownerId: number, id: number) =>
    trx.selectFrom(table).selectAll().where('id', '=', id).where(owner, '=', ownerId).executeTakeFirst();

  const layoutColumns = (layout: ComponentLayout) => {
    const { x, y, w, h } = fitted(layout);
    return { x, y, w, h };
  };

  const grid = {
    /** The owner's components, top to bottom, left to right. */
    async list(trx: Db, ownerId: number): Promise<Component[]> {
      const rows = await trx
        .selectFrom(table)
        .selectAll()
        .where(owner, '=', ownerId)
        .orderBy('y')
        .orderBy('x')
        .orderBy('id')
        .execute();
      return rows.map((row) => toComponent(row, ownerId));
    },

    /** One of the owner's components (404 when it is not there, or another owner's). */
    async get(trx: Db, ownerId: number, id: number): Promise<Component> {
      const row = await rowOf(trx, ownerId, id);
      if (!row) throw notFound(id);
      return toComponent(row, ownerId);
    },

    /** Adds a component where it is asked, or in the next free place (422 past REPORT_MAX_COMPONENTS). */
    async add(trx: Db, ownerId: number, input: GridComponentInput<Chart>): Promise<Component> {
      const existing = await grid.list(trx, ownerId);
      if (existing.length >= REPORT_MAX_COMPONENTS) {
        throw new AppError(
          'UNPROCESSABLE',
          422,
          { max: REPORT_MAX_COMPONENTS },
          { message: messages.tooMany },
        );
      }
      const at = stamp();
      const { id } = await trx
        .insertInto(table)
        .values({
          [owner]: ownerId,
          title: input.title.trim(),
          chart_type: input.chartType,
          yoy: JSON.stringify(input.yoy ?? { option: 'none' }),
          params: JSON.stringify(input.params),
          metrics: JSON.stringify(input.metrics),
          ...layoutColumns(input.layout ?? nextPlace(existing.map((c) => c.layout))),
          created_at: at,
          updated_at: at,
        } as { report_id: number } & Omit<Row, 'id'>)
        .returning('id')
        .executeTakeFirstOrThrow();
      return grid.get(trx, ownerId, id);
    },

    /** Changes the fields given (404 when the component is not the owner's). */
    async patch(
      trx: Db,
      ownerId: number,
      id: number,
      patch: Partial<GridComponentInput<Chart>>,
    ): Promise<Component> {
      await trx
        .updateTable(table)
        .set({
          ...(patch.title !== undefined ? { title: patch.title.trim() } : {}),
          ...(patch.chartType !== undefined ? { chart_type: patch.chartType } : {}),
          ...(patch.yoy !== undefined ? { yoy: JSON.stringify(patch.yoy) } : {}),
          ...(patch.params !== undefined ? { params: JSON.stringify(patch.params) } : {}),
          ...(patch.metrics !== undefined ? { metrics: JSON.stringify(patch.metrics) } : {}),
          ...(patch.layout !== undefined ? layoutColumns(patch.layout) : {}),
          updated_at: stamp(),
        })
        .where('id', '=', id)
        .where(owner, '=', ownerId)
        .execute();
      return grid.get(trx, ownerId, id);
    },

    /** Saves the grid: each listed component's place (422 naming one of another owner). */
    async saveLayouts(
      trx: Db,
      ownerId: number,
      layouts: readonly { id: number; layout: ComponentLayout }[],
    ): Promise<Component[]> {
      const known = new Set((await grid.list(trx, ownerId)).map((c) => c.id));
      const stranger = layouts.find((l) => !known.has(l.id));
      if (stranger) {
        throw new AppError('UNPROCESSABLE', 422, { id: stranger.id }, { message: messages.unknownComponent });
      }
      const at = stamp();
      for (const { id, layout } of layouts) {
        await trx
          .updateTable(table)
          .set({ ...layoutColumns(layout), updated_at: at })
          .where('id', '=', id)
          .execute();
      }
      return grid.list(trx, ownerId);
    },

    /** Removes one component (404 when it is not the owner's). */
    async remove(trx: Db, ownerId: number, id: number): Promise<void> {
      const gone = await trx
        .deleteFrom(table)
        .where('id', '=', id)
        .where(owner, '=', ownerId)
        .executeTakeFirst();
      if (Number(gone.numDeletedRows) === 0) throw notFound(id);
    },

    /** Removes every component of these owners (an owner being deleted). */
    async removeAll(trx: Db, ownerIds: readonly number[]): Promise<void> {
      if (ownerIds.length > 0) await trx.deleteFrom(table).where(owner, 'in', ownerIds).execute();
    },
  };
  return grid;
}
