import type { Tariff, TariffVersion, TariffVersionBody } from '@kilowatch/contract';
import type { Selectable } from 'kysely';
import type { TariffsTable, TariffVersionsTable } from '../../../db/schema.ts';
import type { Db } from '../../../db/sql.ts';

export interface TariffRow {
  name: string;
  description: string;
  holidays: readonly string[];
  workdays: readonly string[];
  weekendDays: readonly number[];
}

const toVersion = (row: Selectable<TariffVersionsTable>): TariffVersion => {
  const body = JSON.parse(row.body) as Omit<TariffVersionBody, 'validFrom'>;
  return {
    id: row.id,
    tariffId: row.tariff_id,
    validFrom: row.valid_from,
    note: body.note ?? '',
    prices: body.prices,
    seasons: body.seasons,
    demand: body.demand,
    powerFactorTarget: body.powerFactorTarget,
    createdAt: row.created_at,
  };
};

const toTariff = (row: Selectable<TariffsTable>, versions: TariffVersion[]): Tariff => ({
  id: row.id,
  name: row.name,
  description: row.description,
  holidays: JSON.parse(row.holidays) as string[],
  workdays: JSON.parse(row.workdays) as string[],
  weekendDays: JSON.parse(row.weekend_days) as number[],
  versions,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const bodyText = (v: TariffVersionBody): string =>
  JSON.stringify({
    note: v.note ?? '',
    prices: v.prices,
    seasons: v.seasons,
    // Stored with its window mode written out (the default may not stay the default).
    demand: v.demand.kind === 'demand' ? { ...v.demand, window: v.demand.window ?? 'fixed' } : v.demand,
    powerFactorTarget: v.powerFactorTarget,
  });

export async function listTariffs(db: Db, id?: number): Promise<Tariff[]> {
  let q = db.selectFrom('tariffs').selectAll().orderBy('id');
  if (id !== undefined) q = q.where('id', '=', id);
  const rows = await q.execute();
  if (rows.length === 0) return [];
  const versions = await db
    .selectFrom('tariff_versions')
    .selectAll()
    .where(
      'tariff_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('tariff_id')
    .orderBy('valid_from')
    .execute();
  const byTariff = new Map<number, TariffVersion[]>();
  for (const v of versions) {
    const list = byTariff.get(v.tariff_id) ?? [];
    list.push(toVersion(v));
    byTariff.set(v.tariff_id, list);
  }
  return rows.map((r) => toTariff(r, byTariff.get(r.id) ?? []));
}

export async function insertTariff(db: Db, t: TariffRow, at: string): Promise<number> {
  const row = await db
    .insertInto('tariffs')
    .values({
      name: t.name,
      description: t.description,
      holidays: JSON.stringify(t.holidays),
      workdays: JSON.stringify(t.workdays),
      weekend_days: JSON.stringify(t.weekendDays),
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateTariff(db: Db, id: number, t: TariffRow, at: string): Promise<void> {
  await db
    .updateTable('tariffs')
    .set({
      name: t.name,
      description: t.description,
      holidays: JSON.stringify(t.holidays),
      workdays: JSON.stringify(t.workdays),
      weekend_days: JSON.stringify(t.weekendDays),
      updated_at: at,
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteTariff(db: Db, id: number): Promise<boolean> {
  await db.deleteFrom('tariff_versions').where('tariff_id', '=', id).execute();
  const res = await db.deleteFrom('tariffs').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function insertVersion(
  db: Db,
  tariffId: number,
  v: TariffVersionBody,
  at: string,
): Promise<number> {
  const row = await db
    .insertInto('tariff_versions')
    .values({ tariff_id: tariffId, valid_from: v.validFrom, body: bodyText(v), created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateVersion(db: Db, id: number, v: TariffVersionBody): Promise<void> {
  await db
    .updateTable('tariff_versions')
    .set({ valid_from: v.validFrom, body: bodyText(v) })
    .where('id', '=', id)
    .execute();
}

export async function deleteVersion(db: Db, id: number): Promise<void> {
  await db.deleteFrom('tariff_versions').where('id', '=', id).execute();
}

export async function touchTariff(db: Db, id: number, at: string): Promise<void> {
  await db.updateTable('tariffs').set({ updated_at: at }).where('id', '=', id).execute();
}

export async function listRegionTariffs(db: Db): Promise<{ regionId: number; tariffId: number }[]> {
  const rows = await db
    .selectFrom('region_tariffs')
    .select(['region_id', 'tariff_id'])
    .orderBy('region_id')
    .execute();
  return rows.map((r) => ({ regionId: r.region_id, tariffId: r.tariff_id }));
}

/** The tariff's regions become exactly `regionIds` (a listed region leaves its former tariff). */
export async function setRegionTariffs(
  db: Db,
  tariffId: number,
  regionIds: readonly number[],
  at: string,
): Promise<void> {
  await db.deleteFrom('region_tariffs').where('tariff_id', '=', tariffId).execute();
  if (regionIds.length === 0) return;
  await db.deleteFrom('region_tariffs').where('region_id', 'in', regionIds).execute();
  await db
    .insertInto('region_tariffs')
    .values(regionIds.map((id) => ({ region_id: id, tariff_id: tariffId, created_at: at })))
    .execute();
}
