import {
  ALARM_STATE,
  type AlarmActionEntry,
  type AlarmActionType,
  type AlarmHistoryQuery,
  type Severity,
  type ThingEvent,
  type ThingEventKind,
} from '@kilowatch/contract';
import { type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import type { DB } from '../../../db/index.ts';
import { containsPattern, type Db, pageRows } from '../../../db/sql.ts';
import type { AlarmStatus } from '../engine/state.ts';
import { iso, ms } from './time.ts';

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
