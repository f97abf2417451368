import type { Enpi, EnpiInput, EnpiOutputEntry } from '@kilowatch/contract';
import type { Selectable } from 'kysely';
import type { EnpisTable } from '../../../db/schema.ts';
import type { Db } from '../../../db/sql.ts';

type Body = Omit<EnpiInput, 'name' | 'description'>;

const bodyText = (e: EnpiInput): string =>
  JSON.stringify({
    energy: e.energy,
    output: e.output,
    outputUnit: e.outputUnit,
    temperature: e.temperature,
    period: e.period,
    baselineStart: e.baselineStart,
    baselineEnd: e.baselineEnd,
    variables: e.variables,
  } satisfies Body);

const toEnpi = (row: Selectable<EnpisTable>): Enpi => ({
  id: row.id,
  name: row.name,
  description: row.description,
  ...(JSON.parse(row.body) as Body),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export async function listEnpis(db: Db, id?: number): Promise<Enpi[]> {
  let q = db.selectFrom('enpis').selectAll().orderBy('id');
  if (id !== undefined) q = q.where('id', '=', id);
  return (await q.execute()).map(toEnpi);
}

export async function insertEnpi(db: Db, e: EnpiInput, at: string): Promise<number> {
  const row = await db
    .insertInto('enpis')
    .values({
      name: e.name,
      description: e.description ?? '',
      body: bodyText(e),
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateEnpi(db: Db, id: number, e: EnpiInput, at: string): Promise<boolean> {
  const res = await db
    .updateTable('enpis')
    .set({ name: e.name, description: e.description ?? '', body: bodyText(e), updated_at: at })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function deleteEnpi(db: Db, id: number): Promise<boolean> {
  await db.deleteFrom('enpi_outputs').where('enpi_id', '=', id).execute();
  const res = await db.deleteFrom('enpis').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function listOutputs(db: Db, id: number): Promise<EnpiOutputEntry[]> {
  const rows = await db
    .selectFrom('enpi_outputs')
    .select(['period', 'value'])
    .where('enpi_id', '=', id)
    .orderBy('period')
    .execute();
  return rows.map((r) => ({ period: r.period, value: Number(r.value) }));
}

export async function putOutput(db: Db, id: number, entry: EnpiOutputEntry, at: string): Promise<void> {
  await db
    .insertInto('enpi_outputs')
    .values({ enpi_id: id, period: entry.period, value: entry.value, updated_at: at })
    .onConflict((oc) => oc.columns(['enpi_id', 'period']).doUpdateSet({ value: entry.value, updated_at: at }))
    .execute();
}

export async function deleteOutput(db: Db, id: number, period: string): Promise<boolean> {
  const res = await db
    .deleteFrom('enpi_outputs')
    .where('enpi_id', '=', id)
    .where('period', '=', period)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
