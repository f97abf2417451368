import type { OutOfServiceEntry } from '@kilowatch/contract';
import type { Selectable } from 'kysely';
import type { DB } from '../../db/index.ts';
import type { Db } from '../../db/sql.ts';

/**
 * Alarms out of service (ISA-18.2; docs/alarms.md "Out of service"): a rule on one thing, or a whole
 * monitor, that the engine does not watch until it is returned to service.
 */

type Row = Selectable<DB['alarm_out_of_service']>;

const toEntry = (r: Row): OutOfServiceEntry => ({
  id: r.id,
  ruleId: r.rule_id,
  thingId: r.thing_id,
  monitorId: r.monitor_id,
  name: r.name,
  reason: r.reason,
  username: r.username,
  createdAt: r.created_at,
});

/** Whether an entry takes the watch of this (monitor, rule, thing) out of service. */
export function covers(
  entry: Pick<OutOfServiceEntry, 'ruleId' | 'thingId' | 'monitorId'>,
  watch: { monitorId: number; ruleId: number; thingId: number },
): boolean {
  if (entry.monitorId !== null) return entry.monitorId === watch.monitorId;
  return entry.ruleId === watch.ruleId && entry.thingId === watch.thingId;
}

export async function allOutOfService(db: Db): Promise<OutOfServiceEntry[]> {
  return (await db.selectFrom('alarm_out_of_service').selectAll().orderBy('id').execute()).map(toEntry);
}

export async function listOutOfService(
  db: Db,
  query: { limit: number; offset: number; ruleId?: number | undefined; thingId?: number | undefined },
): Promise<{ list: OutOfServiceEntry[]; total: number }> {
  let base = db.selectFrom('alarm_out_of_service');
  if (query.ruleId !== undefined) base = base.where('rule_id', '=', query.ruleId);
  if (query.thingId !== undefined) base = base.where('thing_id', '=', query.thingId);
  const { total } = await base
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await base.selectAll().orderBy('id', 'desc').limit(query.limit).offset(query.offset).execute();
  return { list: rows.map(toEntry), total: Number(total) };
}

export async function findOutOfService(db: Db, id: number): Promise<OutOfServiceEntry | undefined> {
  const row = await db.selectFrom('alarm_out_of_service').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toEntry(row);
}

/** The entry with exactly this target, if there is one. */
export async function sameTarget(
  db: Db,
  target: { ruleId: number | null; thingId: number | null; monitorId: number | null },
): Promise<OutOfServiceEntry | undefined> {
  const row = await db
    .selectFrom('alarm_out_of_service')
    .selectAll()
    .where((eb) =>
      target.monitorId !== null
        ? eb('monitor_id', '=', target.monitorId)
        : eb.and([eb('rule_id', '=', target.ruleId!), eb('thing_id', '=', target.thingId!)]),
    )
    .executeTakeFirst();
  return row && toEntry(row);
}

export async function insertOutOfService(
  db: Db,
  entry: Omit<OutOfServiceEntry, 'id' | 'createdAt'> & { userId: number | null },
  now: string,
): Promise<number> {
  const { id } = await db
    .insertInto('alarm_out_of_service')
    .values({
      rule_id: entry.ruleId,
      thing_id: entry.thingId,
      monitor_id: entry.monitorId,
      name: entry.name,
      reason: entry.reason,
      user_id: entry.userId,
      username: entry.username,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function deleteOutOfService(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('alarm_out_of_service').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The open alarms an entry covers: closed when it is taken out of service. */
export async function openCovered(
  db: Db,
  target: { ruleId: number | null; thingId: number | null; monitorId: number | null },
): Promise<{ id: number }[]> {
  return db
    .selectFrom('alarm_history')
    .select('id')
    .where('closed', '=', 0)
    .where((eb) =>
      target.monitorId !== null
        ? eb('monitor_id', '=', target.monitorId)
        : eb.and([eb('rule_id', '=', target.ruleId!), eb('thing_id', '=', target.thingId!)]),
    )
    .orderBy('id')
    .execute();
}
