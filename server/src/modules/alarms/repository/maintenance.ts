import type { MaintenanceInput, MaintenanceWindow } from '@kilowatch/contract';
import { type Db, pageRows } from '../../../db/sql.ts';
import { iso } from './time.ts';

// ---- maintenance windows -------------------------------------------------------------------------

/** Whether any window covering one of these targets is open at `at`. */
export async function inMaintenance(
  db: Db,
  targets: readonly { type: 'thing' | 'region'; id: number }[],
  at: number,
): Promise<boolean> {
  if (targets.length === 0) return false;
  const when = iso(at);
  const row = await db
    .selectFrom('alarm_maintenance')
    .select('id')
    .where('starts_at', '<=', when)
    .where('ends_at', '>', when)
    .where((eb) =>
      eb.or(targets.map((t) => eb.and([eb('target_type', '=', t.type), eb('target_id', '=', t.id)]))),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

function maintenanceBase(db: Db) {
  return db
    .selectFrom('alarm_maintenance as w')
    .leftJoin('things as th', (j) => j.onRef('th.id', '=', 'w.target_id').on('w.target_type', '=', 'thing'))
    .leftJoin('regions as rg', (j) => j.onRef('rg.id', '=', 'w.target_id').on('w.target_type', '=', 'region'))
    .select([
      'w.id',
      'w.target_type',
      'w.target_id',
      'w.starts_at',
      'w.ends_at',
      'w.reason',
      'w.created_at',
      'w.created_by',
      'th.name as thing_name',
      'rg.name as region_name',
    ]);
}

const toMaintenance = (
  w: Awaited<ReturnType<ReturnType<typeof maintenanceBase>['executeTakeFirstOrThrow']>>,
): MaintenanceWindow => ({
  id: w.id,
  targetType: w.target_type as MaintenanceWindow['targetType'],
  targetId: w.target_id,
  targetName: (w.target_type === 'thing' ? w.thing_name : w.region_name) ?? '',
  start: w.starts_at,
  end: w.ends_at,
  reason: w.reason,
  createdAt: w.created_at,
  createdBy: w.created_by,
});

export async function findMaintenance(db: Db, id: number): Promise<MaintenanceWindow | undefined> {
  const row = await maintenanceBase(db).where('w.id', '=', id).executeTakeFirst();
  return row && toMaintenance(row);
}

export async function listMaintenance(
  db: Db,
  query: { page: number; pageSize: number; openAt?: number | undefined },
): Promise<{ list: MaintenanceWindow[]; total: number }> {
  let base = maintenanceBase(db);
  if (query.openAt !== undefined) base = base.where('w.ends_at', '>', iso(query.openAt));
  const { rows, total } = await pageRows(
    base,
    (q) => q.orderBy('w.starts_at', 'desc').orderBy('w.id', 'desc'),
    query,
  );
  return { list: rows.map(toMaintenance), total };
}

export async function insertMaintenance(
  db: Db,
  input: MaintenanceInput,
  now: string,
  createdBy: string,
): Promise<number> {
  const { id } = await db
    .insertInto('alarm_maintenance')
    .values({
      target_type: input.targetType,
      target_id: input.targetId,
      starts_at: iso(input.start),
      ends_at: iso(input.end),
      reason: input.reason,
      created_at: now,
      created_by: createdBy,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function deleteMaintenance(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('alarm_maintenance').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
