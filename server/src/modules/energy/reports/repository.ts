import type { ReportNode } from '@kilowatch/contract';
import type { Selectable } from 'kysely';
import type { ReportsTable } from '../../../db/schema.ts';
import type { Db } from '../../../db/sql.ts';

export type ReportRow = Selectable<ReportsTable>;

export const allReports = (db: Db): Promise<ReportRow[]> =>
  db.selectFrom('reports').selectAll().orderBy('sort').orderBy('id').execute();

export const reportById = (db: Db, id: number): Promise<ReportRow | undefined> =>
  db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst();

/** The tree of every row (top level first, by sort then id), with levels from 1. */
export function buildTree(rows: readonly ReportRow[]): ReportNode[] {
  const byParent = new Map<number | null, ReportRow[]>();
  for (const row of rows) {
    const list = byParent.get(row.parent_id) ?? [];
    list.push(row);
    byParent.set(row.parent_id, list);
  }
  const build = (parentId: number | null, level: number): ReportNode[] =>
    (byParent.get(parentId) ?? []).map((row) => ({
      ...toNode(row, level),
      children: build(row.id, level + 1),
    }));
  return build(null, 1);
}

export const toNode = (row: ReportRow, level: number): ReportNode => ({
  id: row.id,
  parentId: row.parent_id,
  name: row.name,
  folder: row.folder === 1,
  report: row.folder !== 1,
  published: row.published_at !== null,
  publishedAt: row.published_at === null ? null : Date.parse(row.published_at),
  level,
  sort: row.sort,
  children: [],
});

/** Ids of `id` and everything under it. */
export function subtree(rows: readonly ReportRow[], id: number): number[] {
  const ids = [id];
  for (let i = 0; i < ids.length; i++) {
    for (const row of rows) if (row.parent_id === ids[i]) ids.push(row.id);
  }
  return ids;
}

/** Level of a row (1 at the top). */
export function levelOf(rows: readonly ReportRow[], id: number | null): number {
  const byId = new Map(rows.map((r) => [r.id, r]));
  let level = 0;
  for (
    let at = id === null ? undefined : byId.get(id);
    at;
    at = at.parent_id === null ? undefined : byId.get(at.parent_id)
  ) {
    level++;
  }
  return level;
}
