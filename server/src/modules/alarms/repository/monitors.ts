import type { AlarmMonitor } from '@kilowatch/contract';
import type { Selectable } from 'kysely';
import type { DB } from '../../../db/index.ts';
import { type Db, pageRows } from '../../../db/sql.ts';

// ---- monitors ------------------------------------------------------------------------------------

export interface MonitorRecord {
  id: number;
  appliedType: 'rule' | 'template';
  appliedId: number;
  targetType: 'thing' | 'region';
  targetId: number;
}

function monitorBase(db: Db) {
  return db
    .selectFrom('alarm_monitors as m')
    .leftJoin('alarm_rules as r', (j) =>
      j.onRef('r.id', '=', 'm.applied_id').on('m.applied_type', '=', 'rule'),
    )
    .leftJoin('alarm_templates as t', (j) =>
      j.onRef('t.id', '=', 'm.applied_id').on('m.applied_type', '=', 'template'),
    )
    .leftJoin('things as th', (j) => j.onRef('th.id', '=', 'm.target_id').on('m.target_type', '=', 'thing'))
    .leftJoin('regions as rg', (j) => j.onRef('rg.id', '=', 'm.target_id').on('m.target_type', '=', 'region'))
    .select([
      'm.id',
      'm.applied_type',
      'm.applied_id',
      'm.target_type',
      'm.target_id',
      'm.created_at',
      'r.name as rule_name',
      't.name as template_name',
      'th.name as thing_name',
      'rg.name as region_name',
    ]);
}

export async function listMonitors(
  db: Db,
  query: {
    page: number;
    pageSize: number;
    appliedType?: 'rule' | 'template' | undefined;
    appliedId?: number | undefined;
    id?: number | undefined;
  },
): Promise<{ list: AlarmMonitor[]; total: number }> {
  let base = monitorBase(db);
  if (query.id !== undefined) base = base.where('m.id', '=', query.id);
  if (query.appliedType) base = base.where('m.applied_type', '=', query.appliedType);
  if (query.appliedId !== undefined) base = base.where('m.applied_id', '=', query.appliedId);
  const { rows, total } = await pageRows(base, (q) => q.orderBy('m.id'), query);
  return {
    list: rows.map((m) => ({
      id: m.id,
      appliedType: m.applied_type as AlarmMonitor['appliedType'],
      appliedId: m.applied_id,
      appliedName: (m.applied_type === 'rule' ? m.rule_name : m.template_name) ?? '',
      targetType: m.target_type as AlarmMonitor['targetType'],
      targetId: m.target_id,
      targetName: (m.target_type === 'thing' ? m.thing_name : m.region_name) ?? '',
      createdAt: m.created_at,
    })),
    total,
  };
}

const toMonitor = (m: Selectable<DB['alarm_monitors']>): MonitorRecord => ({
  id: m.id,
  appliedType: m.applied_type as MonitorRecord['appliedType'],
  appliedId: m.applied_id,
  targetType: m.target_type as MonitorRecord['targetType'],
  targetId: m.target_id,
});

export async function allMonitors(db: Db): Promise<MonitorRecord[]> {
  const rows = await db.selectFrom('alarm_monitors').selectAll().orderBy('id').execute();
  return rows.map(toMonitor);
}

/** The monitors applying any of these rules or templates. */
export async function monitorsApplying(
  db: Db,
  applied: { ruleIds: readonly number[]; templateIds: readonly number[] },
): Promise<MonitorRecord[]> {
  const { ruleIds, templateIds } = applied;
  if (ruleIds.length === 0 && templateIds.length === 0) return [];
  const rows = await db
    .selectFrom('alarm_monitors')
    .selectAll()
    .where((eb) =>
      eb.or([
        ...(ruleIds.length > 0
          ? [eb.and([eb('applied_type', '=', 'rule'), eb('applied_id', 'in', ruleIds)])]
          : []),
        ...(templateIds.length > 0
          ? [eb.and([eb('applied_type', '=', 'template'), eb('applied_id', 'in', templateIds)])]
          : []),
      ]),
    )
    .orderBy('id')
    .execute();
  return rows.map(toMonitor);
}

/** Applies one rule or template to targets; targets it already covers are left as they are. */
export async function insertMonitors(
  db: Db,
  applied: { type: 'rule' | 'template'; id: number },
  targets: readonly { type: 'thing' | 'region'; id: number }[],
  now: string,
): Promise<number> {
  if (targets.length === 0) return 0;
  const result = await db
    .insertInto('alarm_monitors')
    .values(
      targets.map((t) => ({
        applied_type: applied.type,
        applied_id: applied.id,
        target_type: t.type,
        target_id: t.id,
        created_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(['applied_type', 'applied_id', 'target_type', 'target_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

export async function deleteMonitor(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('alarm_monitors').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
