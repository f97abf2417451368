import {
  ALARM_STATE,
  type AlarmActionEntry,
  type AlarmActionType,
  type AlarmCondition,
  type AlarmHistoryQuery,
  type AlarmMonitor,
  type AlarmRule,
  type AlarmTemplate,
  type MaintenanceInput,
  type MaintenanceWindow,
  type Severity,
  type ThingEvent,
  type ThingEventKind,
} from '@kilowatch/contract';
import { type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import type { DB } from '../../db/index.ts';
import { containsPattern, type Db, pageRows } from '../../db/sql.ts';
import type { AlarmStatus } from './engine/state.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const ms = (text: string | null) => (text === null ? null : Date.parse(text));

// ---- rules ---------------------------------------------------------------------------------------

/** A rule as the engine and the service use it (the API adds counts). */
export type RuleRecord = Omit<AlarmRule, 'things'>;

export interface RuleRow {
  name: string;
  templateId: number | null;
  categoryId: number | null;
  ability: string;
  condition: AlarmCondition;
  onDelay: number;
  offDelay: number;
  deadband: number;
  severity: Severity;
  message: string;
}

function ruleBase(db: Db) {
  return db
    .selectFrom('alarm_rules as r')
    .leftJoin('alarm_templates as t', 't.id', 'r.template_id')
    .select([
      'r.id',
      'r.name',
      'r.template_id',
      't.name as template_name',
      'r.category_id',
      'r.ability',
      'r.condition',
      'r.on_delay',
      'r.off_delay',
      'r.deadband',
      'r.severity',
      'r.message',
      'r.enabled',
      'r.created_at',
      'r.updated_at',
    ]);
}

type RuleSelect = Awaited<ReturnType<ReturnType<typeof ruleBase>['executeTakeFirstOrThrow']>>;

function toRule(r: RuleSelect): RuleRecord {
  return {
    id: r.id,
    name: r.name,
    templateId: r.template_id,
    templateName: r.template_name ?? '',
    categoryId: r.category_id,
    ability: r.ability,
    condition: JSON.parse(r.condition) as AlarmCondition,
    onDelay: r.on_delay,
    offDelay: r.off_delay,
    deadband: Number(r.deadband),
    severity: r.severity as Severity,
    message: r.message,
    enabled: r.enabled === 1,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export async function listRules(
  db: Db,
  query: { page: number; pageSize: number; name?: string | undefined; templateId?: number | undefined },
): Promise<{ list: RuleRecord[]; total: number }> {
  let base = ruleBase(db);
  if (query.name)
    base = base.where(sql<boolean>`lower(r.name) like ${containsPattern(query.name)} escape '\\'`);
  if (query.templateId !== undefined) base = base.where('r.template_id', '=', query.templateId);
  const { rows, total } = await pageRows(base, (q) => q.orderBy('r.id'), query);
  return { list: rows.map(toRule), total };
}

export async function findRule(db: Db, id: number): Promise<RuleRecord | undefined> {
  const row = await ruleBase(db).where('r.id', '=', id).executeTakeFirst();
  return row && toRule(row);
}

/** Every enabled rule: what the engine evaluates. */
export async function enabledRules(db: Db): Promise<RuleRecord[]> {
  return (await ruleBase(db).where('r.enabled', '=', 1).orderBy('r.id').execute()).map(toRule);
}

const ruleColumns = (rule: RuleRow) => ({
  name: rule.name,
  template_id: rule.templateId,
  category_id: rule.categoryId,
  ability: rule.ability,
  condition: JSON.stringify(rule.condition),
  on_delay: rule.onDelay,
  off_delay: rule.offDelay,
  deadband: rule.deadband,
  severity: rule.severity,
  message: rule.message,
});

export async function insertRule(db: Db, rule: RuleRow, now: string): Promise<number> {
  const { id } = await db
    .insertInto('alarm_rules')
    .values({ ...ruleColumns(rule), enabled: 0, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateRule(db: Db, id: number, rule: RuleRow, now: string): Promise<boolean> {
  const result = await db
    .updateTable('alarm_rules')
    .set({ ...ruleColumns(rule), updated_at: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function setRuleEnabled(db: Db, id: number, enabled: boolean, now: string): Promise<boolean> {
  const result = await db
    .updateTable('alarm_rules')
    .set({ enabled: enabled ? 1 : 0, updated_at: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes a rule and the monitors applying it; its history stays (names were copied into it). */
export async function deleteRule(db: Db, id: number): Promise<boolean> {
  await db
    .deleteFrom('alarm_monitors')
    .where('applied_type', '=', 'rule')
    .where('applied_id', '=', id)
    .execute();
  const result = await db.deleteFrom('alarm_rules').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

// ---- templates -----------------------------------------------------------------------------------

function templateBase(db: Db) {
  return db
    .selectFrom('alarm_templates as t')
    .innerJoin('thing_categories as c', 'c.id', 't.category_id')
    .select((eb) => [
      't.id',
      't.name',
      't.category_id',
      'c.name as category_name',
      't.description',
      't.created_at',
      't.updated_at',
      eb
        .selectFrom('alarm_rules as r')
        .whereRef('r.template_id', '=', 't.id')
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .as('rules'),
    ]);
}

type TemplateSelect = Awaited<ReturnType<ReturnType<typeof templateBase>['executeTakeFirstOrThrow']>>;

const toTemplate = (t: TemplateSelect): AlarmTemplate => ({
  id: t.id,
  name: t.name,
  categoryId: t.category_id,
  categoryName: t.category_name,
  description: t.description,
  rules: Number(t.rules ?? 0),
  createdAt: t.created_at,
  updatedAt: t.updated_at,
});

export async function listTemplates(
  db: Db,
  query: { page: number; pageSize: number; name?: string | undefined },
): Promise<{ list: AlarmTemplate[]; total: number }> {
  let base = templateBase(db);
  if (query.name)
    base = base.where(sql<boolean>`lower(t.name) like ${containsPattern(query.name)} escape '\\'`);
  const { rows, total } = await pageRows(base, (q) => q.orderBy('t.id'), query);
  return { list: rows.map(toTemplate), total };
}

export async function findTemplate(db: Db, id: number): Promise<AlarmTemplate | undefined> {
  const row = await templateBase(db).where('t.id', '=', id).executeTakeFirst();
  return row && toTemplate(row);
}

export async function insertTemplate(
  db: Db,
  template: { name: string; categoryId: number; description: string },
  now: string,
): Promise<number> {
  const { id } = await db
    .insertInto('alarm_templates')
    .values({
      name: template.name,
      category_id: template.categoryId,
      description: template.description,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateTemplate(
  db: Db,
  id: number,
  template: { name: string; categoryId: number; description: string },
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('alarm_templates')
    .set({
      name: template.name,
      category_id: template.categoryId,
      description: template.description,
      updated_at: now,
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes a template, its rules and every monitor applying either. */
export async function deleteTemplate(db: Db, id: number): Promise<boolean> {
  const rules = db.selectFrom('alarm_rules').select('id').where('template_id', '=', id);
  await db
    .deleteFrom('alarm_monitors')
    .where((eb) =>
      eb.or([
        eb.and([eb('applied_type', '=', 'template'), eb('applied_id', '=', id)]),
        eb.and([eb('applied_type', '=', 'rule'), eb('applied_id', 'in', rules)]),
      ]),
    )
    .execute();
  await db.deleteFrom('alarm_rules').where('template_id', '=', id).execute();
  const result = await db.deleteFrom('alarm_templates').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

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

// ---- history -------------------------------------------------------------------------------------

export interface HistoryRecord {
  id: number;
  monitorId: number;
  ruleId: number;
  ruleName: string;
  templateName: string;
  thingId: number;
  thingName: string;
  resourceType: 'thing' | 'region';
  resourceId: number;
  resourceName: string;
  severity: Severity;
  message: string;
  value: string;
  alarmAt: number;
  returnedAt: number | null;
  status: AlarmStatus;
}

type HistoryRow = Selectable<DB['alarm_history']>;

function toHistory(r: HistoryRow): HistoryRecord {
  return {
    id: r.id,
    monitorId: r.monitor_id,
    ruleId: r.rule_id,
    ruleName: r.rule_name,
    templateName: r.template_name,
    thingId: r.thing_id,
    thingName: r.thing_name,
    resourceType: r.resource_type as HistoryRecord['resourceType'],
    resourceId: r.resource_id,
    resourceName: r.resource_name,
    severity: r.severity as Severity,
    message: r.message,
    value: r.value,
    alarmAt: Date.parse(r.alarm_at),
    returnedAt: ms(r.returned_at),
    status: {
      active: r.active === 1,
      acknowledged: r.acknowledged === 1,
      closed: r.closed === 1,
      shelvedUntil: ms(r.shelved_until),
      suppressed: r.suppressed === 1,
      chattering: r.chattering === 1,
      occurrences: r.occurrences,
    },
  };
}

const statusColumns = (s: AlarmStatus) => ({
  active: s.active ? 1 : 0,
  acknowledged: s.acknowledged ? 1 : 0,
  closed: s.closed ? 1 : 0,
  shelved_until: s.shelvedUntil === null ? null : iso(s.shelvedUntil),
  suppressed: s.suppressed ? 1 : 0,
  chattering: s.chattering ? 1 : 0,
  occurrences: s.occurrences,
});

/** The state filter in SQL, the same partition as `stateCode` (engine/state.ts). */
function whereState(
  base: SelectQueryBuilder<DB, 'alarm_history', object>,
  state: number,
  now: string,
): SelectQueryBuilder<DB, 'alarm_history', object> {
  const open = base.where('closed', '=', 0);
  const unshelved = (q: typeof base) =>
    q.where((eb) => eb.or([eb('shelved_until', 'is', null), eb('shelved_until', '<=', now)]));
  switch (state) {
    case ALARM_STATE.normal:
      return base.where('closed', '=', 1);
    case ALARM_STATE.suppressed:
      return open.where('suppressed', '=', 1);
    case ALARM_STATE.shelved:
      return open.where('suppressed', '=', 0).where('shelved_until', '>', now);
    case ALARM_STATE.unacknowledged:
      return unshelved(open.where('suppressed', '=', 0))
        .where('active', '=', 1)
        .where('acknowledged', '=', 0);
    case ALARM_STATE.acknowledged:
      return unshelved(open.where('suppressed', '=', 0))
        .where('active', '=', 1)
        .where('acknowledged', '=', 1);
    default:
      return unshelved(open.where('suppressed', '=', 0)).where('active', '=', 0);
  }
}

/** A page of history, newest first, with the count of every match and whether more follow. */
export async function listHistory(
  db: Db,
  query: AlarmHistoryQuery & { page: number; pageSize: number },
  now: number,
): Promise<{ list: HistoryRecord[]; size: number }> {
  let base = db.selectFrom('alarm_history') as SelectQueryBuilder<DB, 'alarm_history', object>;
  if (query.id !== undefined) base = base.where('id', '=', query.id);
  if (query.ruleId !== undefined) base = base.where('rule_id', '=', query.ruleId);
  if (query.thingId !== undefined) base = base.where('thing_id', '=', query.thingId);
  if (query.severity) base = base.where('severity', '=', query.severity);
  if (query.start !== undefined) base = base.where('alarm_at', '>=', iso(query.start));
  if (query.end !== undefined) base = base.where('alarm_at', '<', iso(query.end));
  if (query.name) {
    const pattern = containsPattern(query.name);
    base = base.where((eb) =>
      eb.or([
        sql<boolean>`lower(resource_name) like ${pattern} escape '\\'`,
        sql<boolean>`lower(thing_name) like ${pattern} escape '\\'`,
        sql<boolean>`lower(rule_name) like ${pattern} escape '\\'`,
      ]),
    );
  }
  if (query.templateName) {
    base = base.where(
      sql<boolean>`lower(template_name) like ${containsPattern(query.templateName)} escape '\\'`,
    );
  }
  if (query.state !== undefined) base = whereState(base, query.state, iso(now));
  const { rows, total } = await pageRows(
    base.selectAll(),
    (q) => q.orderBy('alarm_at', 'desc').orderBy('id', 'desc'),
    query,
  );
  return { list: rows.map(toHistory), size: total };
}

/**
 * Every active alarm (states 1 and 2: not shelved, suppressed or closed) as thing, severity and
 * whether it is acknowledged: the situation overview's counts and map colours.
 */
export async function listActive(
  db: Db,
  now: number,
): Promise<{ thingId: number; severity: string; acknowledged: boolean }[]> {
  const base = db.selectFrom('alarm_history') as SelectQueryBuilder<DB, 'alarm_history', object>;
  const rows = await Promise.all(
    [ALARM_STATE.unacknowledged, ALARM_STATE.acknowledged].map((state) =>
      whereState(base, state, iso(now)).select(['thing_id', 'severity']).execute(),
    ),
  );
  return rows.flatMap((list, i) =>
    list.map((r) => ({ thingId: r.thing_id, severity: r.severity, acknowledged: i === 1 })),
  );
}

/**
 * The alarms of these things that stood at some time in [start, end): raised before the end, and
 * returned at or after the start, or not returned and either still open or raised inside the range
 * (one closed by hand without returning ends where it was raised). Suppressed ones are left out.
 * The newest `limit`, oldest first.
 */
export async function listSpans(
  db: Db,
  thingIds: readonly number[],
  start: number,
  end: number,
  limit: number,
): Promise<HistoryRecord[]> {
  const from = iso(start);
  const rows = await db
    .selectFrom('alarm_history')
    .selectAll()
    .where('thing_id', 'in', [...thingIds])
    .where('suppressed', '=', 0)
    .where('alarm_at', '<', iso(end))
    .where((eb) =>
      eb.or([
        eb('returned_at', '>=', from),
        eb.and([eb('returned_at', 'is', null), eb.or([eb('closed', '=', 0), eb('alarm_at', '>=', from)])]),
      ]),
    )
    .orderBy('alarm_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toHistory).reverse();
}

/**
 * One thing's event log over [from, to), newest first, at most `limit`: its alarms' raises and
 * returns, the operators' actions on them, and its own maintenance windows' starts and ends.
 */
export async function listThingEvents(
  db: Db,
  thingId: number,
  from: number,
  to: number,
  limit: number,
): Promise<ThingEvent[]> {
  const [start, end] = [iso(from), iso(to)];
  const [raised, returned, actions, maintenance] = await Promise.all([
    db
      .selectFrom('alarm_history')
      .select(['id', 'rule_name', 'severity', 'alarm_at'])
      .where('thing_id', '=', thingId)
      .where('alarm_at', '>=', start)
      .where('alarm_at', '<', end)
      .orderBy('alarm_at', 'desc')
      .limit(limit)
      .execute(),
    db
      .selectFrom('alarm_history')
      .select(['id', 'rule_name', 'severity', 'returned_at'])
      .where('thing_id', '=', thingId)
      .where('returned_at', '>=', start)
      .where('returned_at', '<', end)
      .orderBy('returned_at', 'desc')
      .limit(limit)
      .execute(),
    db
      .selectFrom('alarm_actions')
      .innerJoin('alarm_history', 'alarm_history.id', 'alarm_actions.history_id')
      .select([
        'alarm_history.id as alarm_id',
        'alarm_history.rule_name',
        'alarm_history.severity',
        'alarm_actions.action',
        'alarm_actions.username',
        'alarm_actions.comment',
        'alarm_actions.at',
      ])
      .where('alarm_history.thing_id', '=', thingId)
      .where('alarm_actions.at', '>=', start)
      .where('alarm_actions.at', '<', end)
      .orderBy('alarm_actions.at', 'desc')
      .limit(limit)
      .execute(),
    db
      .selectFrom('alarm_maintenance')
      .select(['starts_at', 'ends_at', 'reason'])
      .where('target_type', '=', 'thing')
      .where('target_id', '=', thingId)
      .where('starts_at', '<', end)
      .where('ends_at', '>=', start)
      .execute(),
  ]);
  const events: ThingEvent[] = [
    ...raised.map((r) => alarmEvent('raised', r.alarm_at, r.id, r.rule_name, r.severity)),
    ...returned.map((r) => alarmEvent('returned', r.returned_at!, r.id, r.rule_name, r.severity)),
    ...actions.map((a) => ({
      ...alarmEvent(a.action as ThingEventKind, a.at, a.alarm_id, a.rule_name, a.severity),
      username: a.username,
      comment: a.comment,
    })),
    ...maintenance.flatMap((m) =>
      (
        [
          ['maintenanceStart', m.starts_at],
          ['maintenanceEnd', m.ends_at],
        ] as const
      )
        .filter(([, at]) => at >= start && at < end)
        .map(([kind, at]) => ({
          at: Date.parse(at),
          kind,
          alarmId: null,
          title: m.reason,
          severity: null,
          username: '',
          comment: '',
        })),
    ),
  ];
  return events.sort((a, b) => b.at - a.at).slice(0, limit);
}

const alarmEvent = (kind: ThingEventKind, at: string, alarmId: number, title: string, severity: string) => ({
  at: Date.parse(at),
  kind,
  alarmId,
  title,
  severity: severity as Severity,
  username: '',
  comment: '',
});

export async function findHistory(db: Db, id: number): Promise<HistoryRecord | undefined> {
  const row = await db.selectFrom('alarm_history').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toHistory(row);
}

/** Alarms not yet back to normal: where the engine resumes after a restart. */
export async function openHistory(db: Db): Promise<HistoryRecord[]> {
  const rows = await db
    .selectFrom('alarm_history')
    .selectAll()
    .where('closed', '=', 0)
    .orderBy('id')
    .execute();
  return rows.map(toHistory);
}

/** The open alarm of one (monitor, rule, thing), if any: there is never more than one. */
export async function findOpen(
  db: Db,
  key: { monitorId: number; ruleId: number; thingId: number },
): Promise<HistoryRecord | undefined> {
  const row = await db
    .selectFrom('alarm_history')
    .selectAll()
    .where('monitor_id', '=', key.monitorId)
    .where('thing_id', '=', key.thingId)
    .where('rule_id', '=', key.ruleId)
    .where('closed', '=', 0)
    .executeTakeFirst();
  return row && toHistory(row);
}

/** Shelves that ran out: still-active alarms ring again (engine/state.ts unshelvedByTime). */
export async function expireShelves(db: Db, now: number): Promise<void> {
  await db
    .updateTable('alarm_history')
    .set((eb) => ({
      shelved_until: null,
      acknowledged: eb.case().when('active', '=', 1).then(0).else(eb.ref('acknowledged')).end(),
      updated_at: iso(now),
    }))
    .where('closed', '=', 0)
    .where('shelved_until', '<=', iso(now))
    .execute();
}

export async function insertHistory(db: Db, record: Omit<HistoryRecord, 'id'>, now: string): Promise<number> {
  const { id } = await db
    .insertInto('alarm_history')
    .values({
      monitor_id: record.monitorId,
      rule_id: record.ruleId,
      rule_name: record.ruleName,
      template_name: record.templateName,
      thing_id: record.thingId,
      thing_name: record.thingName,
      resource_type: record.resourceType,
      resource_id: record.resourceId,
      resource_name: record.resourceName,
      severity: record.severity,
      message: record.message,
      value: record.value,
      alarm_at: iso(record.alarmAt),
      returned_at: record.returnedAt === null ? null : iso(record.returnedAt),
      ...statusColumns(record.status),
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await addAnnunciation(db, {
    historyId: id,
    ruleId: record.ruleId,
    thingId: record.thingId,
    at: record.alarmAt,
    suppressed: record.status.suppressed,
  });
  return id;
}

/**
 * One annunciation of an alarm (its raise, or a re-raise grouped into it): what the alarm rate,
 * floods and bad actors count (docs/alarms.md "System health").
 */
export async function addAnnunciation(
  db: Db,
  a: { historyId: number; ruleId: number; thingId: number; at: number; suppressed: boolean },
): Promise<void> {
  await db
    .insertInto('alarm_annunciations')
    .values({
      history_id: a.historyId,
      rule_id: a.ruleId,
      thing_id: a.thingId,
      at: iso(a.at),
      suppressed: a.suppressed ? 1 : 0,
    })
    .execute();
}

export async function updateHistory(
  db: Db,
  id: number,
  change: { status: AlarmStatus; returnedAt?: number | null; value?: string },
  now: string,
): Promise<void> {
  await db
    .updateTable('alarm_history')
    .set({
      ...statusColumns(change.status),
      ...(change.returnedAt !== undefined
        ? { returned_at: change.returnedAt === null ? null : iso(change.returnedAt) }
        : {}),
      ...(change.value !== undefined ? { value: change.value } : {}),
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

export async function insertAction(
  db: Db,
  action: {
    historyId: number;
    action: AlarmActionType;
    userId: number | null;
    username: string;
    comment: string;
    until: number | null;
  },
  now: string,
): Promise<void> {
  await db
    .insertInto('alarm_actions')
    .values({
      history_id: action.historyId,
      action: action.action,
      user_id: action.userId,
      username: action.username,
      comment: action.comment,
      until: action.until === null ? null : iso(action.until),
      at: now,
    })
    .execute();
}

export async function actionsOf(db: Db, historyId: number): Promise<AlarmActionEntry[]> {
  const rows = await db
    .selectFrom('alarm_actions')
    .selectAll()
    .where('history_id', '=', historyId)
    .orderBy('id')
    .execute();
  return rows.map((a) => ({
    id: a.id,
    action: a.action as AlarmActionType,
    username: a.username,
    comment: a.comment,
    until: a.until,
    at: a.at,
  }));
}

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
