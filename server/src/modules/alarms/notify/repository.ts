import type { NotifyEvent, NotifyOutboxItem, NotifyRoute, Severity } from '@kilowatch/contract';
import type { Selectable } from 'kysely';
import type { DB } from '../../../db/index.ts';
import { type Db, pageRows } from '../../../db/sql.ts';
import type { SmtpServer } from '../../mail/index.ts';
import type { AlarmFacts, NotifyMessage } from './message.ts';

const SMTP_ROW = 1;
const ms = (text: string | null) => (text === null ? null : Date.parse(text));

// ---- SMTP ---------------------------------------------------------------------------------------

/** Nothing configured yet reads as an empty host on the submission port. */
const NO_SMTP: SmtpServer = {
  host: '',
  port: 587,
  security: 'starttls',
  username: '',
  password: '',
  from: '',
};

export async function smtp(db: Db): Promise<SmtpServer> {
  const row = await db
    .selectFrom('alarm_notify_smtp')
    .selectAll()
    .where('id', '=', SMTP_ROW)
    .executeTakeFirst();
  if (!row) return NO_SMTP;
  return {
    host: row.host,
    port: row.port,
    security: row.security as SmtpServer['security'],
    username: row.username,
    password: row.password,
    from: row.sender,
  };
}

export async function saveSmtp(db: Db, server: SmtpServer, stamp: string): Promise<void> {
  const row = {
    host: server.host,
    port: server.port,
    security: server.security,
    username: server.username,
    password: server.password,
    sender: server.from,
    updated_at: stamp,
  };
  const updated = await db
    .updateTable('alarm_notify_smtp')
    .set(row)
    .where('id', '=', SMTP_ROW)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) {
    await db
      .insertInto('alarm_notify_smtp')
      .values({ id: SMTP_ROW, ...row })
      .execute();
  }
}

// ---- routes -------------------------------------------------------------------------------------

/** A route with its secret: the service strips it before anything leaves the server. */
export interface RouteRecord extends Omit<NotifyRoute, 'secretSet'> {
  secret: string;
}

export interface RouteRow {
  name: string;
  channel: NotifyRoute['channel'];
  severities: Severity[];
  events: NotifyEvent[];
  url: string;
  secret: string;
  timeoutMs: number;
  recipients: string[];
  enabled: boolean;
}

function routeOut(r: Selectable<DB['alarm_notify_routes']>): RouteRecord {
  return {
    id: r.id,
    name: r.name,
    channel: r.channel as NotifyRoute['channel'],
    severities: JSON.parse(r.severities) as Severity[],
    events: JSON.parse(r.events) as NotifyEvent[],
    url: r.url,
    secret: r.secret,
    timeoutMs: r.timeout_ms,
    recipients: JSON.parse(r.recipients) as string[],
    enabled: r.enabled === 1,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const routeRow = (row: RouteRow) => ({
  name: row.name,
  channel: row.channel,
  severities: JSON.stringify(row.severities),
  events: JSON.stringify(row.events),
  url: row.url,
  secret: row.secret,
  timeout_ms: row.timeoutMs,
  recipients: JSON.stringify(row.recipients),
  enabled: row.enabled ? 1 : 0,
});

export async function routes(db: Db): Promise<RouteRecord[]> {
  const rows = await db.selectFrom('alarm_notify_routes').selectAll().orderBy('id').execute();
  return rows.map(routeOut);
}

export async function findRoute(db: Db, id: number): Promise<RouteRecord | undefined> {
  const row = await db.selectFrom('alarm_notify_routes').selectAll().where('id', '=', id).executeTakeFirst();
  return row && routeOut(row);
}

export async function insertRoute(db: Db, row: RouteRow, stamp: string): Promise<number> {
  const { id } = await db
    .insertInto('alarm_notify_routes')
    .values({ ...routeRow(row), created_at: stamp, updated_at: stamp })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateRoute(db: Db, id: number, row: RouteRow, stamp: string): Promise<boolean> {
  const result = await db
    .updateTable('alarm_notify_routes')
    .set({ ...routeRow(row), updated_at: stamp })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteRoute(db: Db, id: number): Promise<boolean> {
  // Explicitly, not only by the foreign key: SQLite enforces it only with its pragma on.
  await db.deleteFrom('alarm_notify_outbox').where('route_id', '=', id).execute();
  const result = await db.deleteFrom('alarm_notify_routes').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

// ---- alarms -------------------------------------------------------------------------------------

/** The alarm as history holds it now, or undefined when it is gone. */
export async function alarmFacts(db: Db, id: number): Promise<AlarmFacts | undefined> {
  const r = await db.selectFrom('alarm_history').selectAll().where('id', '=', id).executeTakeFirst();
  if (!r) return undefined;
  return {
    id: r.id,
    ruleName: r.rule_name,
    thingName: r.thing_name,
    resourceType: r.resource_type as AlarmFacts['resourceType'],
    resourceName: r.resource_name,
    severity: r.severity as Severity,
    message: r.message,
    value: r.value,
    alarmAt: Date.parse(r.alarm_at),
    returnedAt: ms(r.returned_at),
  };
}

// ---- outbox -------------------------------------------------------------------------------------

export interface OutboxRecord {
  id: number;
  routeId: number;
  alarmId: number;
  event: NotifyEvent;
  message: NotifyMessage;
  attempts: number;
}

export async function enqueue(
  db: Db,
  entries: readonly { routeId: number; alarmId: number; message: NotifyMessage }[],
  stamp: string,
): Promise<void> {
  if (entries.length === 0) return;
  await db
    .insertInto('alarm_notify_outbox')
    .values(
      entries.map((e) => ({
        route_id: e.routeId,
        alarm_id: e.alarmId,
        event: e.message.event,
        payload: JSON.stringify(e.message),
        status: 'pending',
        attempts: 0,
        next_attempt_at: stamp,
        last_error: '',
        created_at: stamp,
        sent_at: null,
      })),
    )
    .execute();
}

/**
 * Claims up to `limit` rows due at `stamp` (not in `busy`, this notifier's own sends under way)
 * and returns them. A claim moves the row's next attempt to `leaseUntil`, on the condition that
 * nobody moved it first: another notifier on the same database (another server process) that read
 * the same rows gets none of them, so nothing is sent twice. A notifier that dies while sending
 * leaves the row to be tried again once the lease is over.
 */
export async function claimDue(
  db: Db,
  stamp: string,
  leaseUntil: string,
  limit: number,
  busy: readonly number[],
): Promise<OutboxRecord[]> {
  let query = db
    .selectFrom('alarm_notify_outbox')
    .select(['id', 'route_id', 'alarm_id', 'event', 'payload', 'attempts', 'next_attempt_at'])
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', stamp)
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit);
  if (busy.length > 0) query = query.where('id', 'not in', busy);
  const claimed: OutboxRecord[] = [];
  for (const r of await query.execute()) {
    if (r.next_attempt_at === null) continue;
    const { numUpdatedRows } = await db
      .updateTable('alarm_notify_outbox')
      .set({ next_attempt_at: leaseUntil })
      .where('id', '=', r.id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '=', r.next_attempt_at)
      .executeTakeFirst();
    if (numUpdatedRows !== 1n) continue;
    claimed.push({
      id: r.id,
      routeId: r.route_id,
      alarmId: r.alarm_id,
      event: r.event as NotifyEvent,
      message: JSON.parse(r.payload) as NotifyMessage,
      attempts: r.attempts,
    });
  }
  return claimed;
}

/** Moves a claim's lease on, if it is still the claim set at `held` (nobody took the row since). */
export async function renewClaim(db: Db, id: number, held: string, until: string): Promise<boolean> {
  const { numUpdatedRows } = await db
    .updateTable('alarm_notify_outbox')
    .set({ next_attempt_at: until })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '=', held)
    .executeTakeFirst();
  return numUpdatedRows === 1n;
}

/** Gives a claimed row back untried (a send cut short by a shutdown): due again at `stamp`. */
export async function release(db: Db, id: number, stamp: string): Promise<void> {
  await db
    .updateTable('alarm_notify_outbox')
    .set({ next_attempt_at: stamp })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

export async function markSent(db: Db, id: number, attempts: number, stamp: string): Promise<void> {
  await db
    .updateTable('alarm_notify_outbox')
    .set({ status: 'sent', attempts, next_attempt_at: null, last_error: '', sent_at: stamp })
    .where('id', '=', id)
    .execute();
}

/** A failed try: again at `next`, or given up on (status failed) when `next` is null. */
export async function markFailed(
  db: Db,
  id: number,
  attempts: number,
  error: string,
  next: string | null,
): Promise<void> {
  await db
    .updateTable('alarm_notify_outbox')
    .set({
      status: next === null ? 'failed' : 'pending',
      attempts,
      next_attempt_at: next,
      last_error: error.slice(0, 1000),
    })
    .where('id', '=', id)
    .execute();
}

/** Notifications still to send: how many, and when the oldest was queued (ISO, null when none). */
export async function backlog(db: Db): Promise<{ pending: number; oldest: string | null }> {
  const row = await db
    .selectFrom('alarm_notify_outbox')
    .select((eb) => [eb.fn.countAll<number | string>().as('pending'), eb.fn.min('created_at').as('oldest')])
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return { pending: Number(row.pending), oldest: row.oldest ?? null };
}

/** Forgets sent and given-up notifications created before `stamp`; pending ones are kept. */
export async function prune(db: Db, stamp: string): Promise<number> {
  const result = await db
    .deleteFrom('alarm_notify_outbox')
    .where('status', 'in', ['sent', 'failed'])
    .where('created_at', '<', stamp)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function listOutbox(
  db: Db,
  query: { status?: NotifyOutboxItem['status']; page: number; pageSize: number },
): Promise<{ list: NotifyOutboxItem[]; total: number }> {
  let base = db.selectFrom('alarm_notify_outbox').selectAll();
  if (query.status) base = base.where('status', '=', query.status);
  const { rows, total } = await pageRows(base, (q) => q.orderBy('id', 'desc'), query);
  return {
    total,
    list: rows.map((r) => ({
      id: r.id,
      routeId: r.route_id,
      alarmId: r.alarm_id,
      event: r.event as NotifyEvent,
      status: r.status as NotifyOutboxItem['status'],
      attempts: r.attempts,
      nextAttemptAt: r.next_attempt_at,
      lastError: r.last_error,
      createdAt: r.created_at,
      sentAt: r.sent_at,
    })),
  };
}
