import type { BoardPage } from '@kilowatch/contract';
import type { Db } from '../../db/sql.ts';

/** A page row with its region's name and how many components it holds. */
export interface PageRow {
  id: number;
  name: string;
  region_id: number;
  region_name: string;
  successor: number;
  category_id: number | null;
  interval_s: number;
  weight: number;
  enabled: number;
  components: number | string | bigint;
  updated_at: string;
}

export const pageRows = (db: Db, id?: number): Promise<PageRow[]> => {
  let query = db
    .selectFrom('board_pages as p')
    .innerJoin('regions as r', 'r.id', 'p.region_id')
    .select((eb) => [
      'p.id',
      'p.name',
      'p.region_id',
      'r.name as region_name',
      'p.successor',
      'p.category_id',
      'p.interval_s',
      'p.weight',
      'p.enabled',
      'p.updated_at',
      eb
        .selectFrom('board_components as c')
        .whereRef('c.page_id', '=', 'p.id')
        .select((c) => c.fn.countAll().as('n'))
        .as('components'),
    ]);
  if (id !== undefined) query = query.where('p.id', '=', id);
  return query.execute() as Promise<PageRow[]>;
};

/** Pages in display order with their share of the rotation's time (docs/board.md). */
export function toPages(rows: readonly PageRow[]): BoardPage[] {
  const total = rows.filter((r) => r.enabled === 1).reduce((sum, r) => sum + r.weight * r.interval_s, 0);
  return rows
    .map((r) => ({
      id: r.id,
      name: r.name,
      regionId: r.region_id,
      regionName: r.region_name,
      successor: r.successor === 1,
      categoryId: r.category_id,
      interval: r.interval_s,
      weight: r.weight,
      enabled: r.enabled === 1,
      share: r.enabled === 1 && total > 0 ? (r.weight * r.interval_s) / total : 0,
      components: Number(r.components ?? 0),
      updatedAt: Date.parse(r.updated_at),
    }))
    .sort((a, b) => b.weight - a.weight || a.id - b.id);
}
