import type { Diagram, DiagramGraph, DiagramSummary } from '@kilowatch/contract';
import type { Selectable } from 'kysely';
import type { DiagramsTable } from '../../db/schema.ts';
import type { Db } from '../../db/sql.ts';

type Row = Selectable<DiagramsTable>;

const toSummary = (row: Pick<Row, 'id' | 'name' | 'updated_at'>): DiagramSummary => ({
  id: row.id,
  name: row.name,
  updatedAt: Date.parse(row.updated_at),
});

const toDiagram = (row: Row): Diagram => ({
  ...toSummary(row),
  graph: JSON.parse(row.graph) as DiagramGraph,
});

export const listDiagrams = async (db: Db): Promise<DiagramSummary[]> =>
  (
    await db
      .selectFrom('diagrams')
      .select(['id', 'name', 'updated_at'])
      .orderBy('name')
      .orderBy('id')
      .execute()
  ).map(toSummary);

export const diagramById = async (db: Db, id: number): Promise<Diagram | undefined> => {
  const row = await db.selectFrom('diagrams').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toDiagram(row);
};

export const insertDiagram = async (
  db: Db,
  name: string,
  graph: DiagramGraph,
  at: string,
): Promise<number> => {
  const row = await db
    .insertInto('diagrams')
    .values({ name, graph: JSON.stringify(graph), created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
};

export const updateDiagram = async (
  db: Db,
  id: number,
  patch: { name?: string | undefined; graph?: DiagramGraph | undefined },
  at: string,
): Promise<boolean> => {
  const result = await db
    .updateTable('diagrams')
    .set({
      ...(patch.name === undefined ? {} : { name: patch.name }),
      ...(patch.graph === undefined ? {} : { graph: JSON.stringify(patch.graph) }),
      updated_at: at,
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
};

export const deleteDiagram = async (db: Db, id: number): Promise<boolean> => {
  const result = await db.deleteFrom('diagrams').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
};
