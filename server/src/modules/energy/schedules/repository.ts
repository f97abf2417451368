import type {
  ReportScheduleInput,
  ReportScheduleRun,
  ScheduleFrequency,
  ScheduleRunError,
  ScheduleRunStatus,
} from '@kilowatch/contract';
import type { Selectable } from 'kysely';
import type { DB } from '../../../db/index.ts';
import type { Db } from '../../../db/sql.ts';

type ScheduleRow = Selectable<DB['report_schedules']>;
type RunRow = Selectable<DB['report_schedule_runs']>;

/** A schedule as the runner and the service read it. */
export interface ScheduleRecord extends ReportScheduleInput {
  id: number;
  reportId: number;
  nextRunAt: string | null;
  leaseUntil: string | null;
  createdAt: string;
  updatedAt: string;
}

function scheduleOut(r: ScheduleRow): ScheduleRecord {
  return {
    id: r.id,
    reportId: r.report_id,
    frequency: r.frequency as ScheduleFrequency,
    weekday: r.weekday,
    monthDay: r.month_day,
    time: r.time,
    recipients: JSON.parse(r.recipients) as string[],
    language: r.language as ReportScheduleInput['language'],
    enabled: r.enabled === 1,
    nextRunAt: r.next_run_at,
    leaseUntil: r.lease_until,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function runOut(r: RunRow): ReportScheduleRun {
  return {
    id: r.id,
    scheduleId: r.schedule_id,
    trigger: r.trigger as ReportScheduleRun['trigger'],
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    periodStart: r.period_start,
    periodEnd: r.period_end,
    status: r.status as ScheduleRunStatus,
    errorCode: r.error_code as ScheduleRunError | null,
    error: r.error,
    recipients: JSON.parse(r.recipients) as string[],
  };
}

const columns = (input: ReportScheduleInput, nextRunAt: string | null) => ({
  frequency: input.frequency,
  weekday: input.weekday,
  month_day: input.monthDay,
  time: input.time,
  recipients: JSON.stringify(input.recipients),
  language: input.language,
  enabled: input.enabled ? 1 : 0,
  next_run_at: nextRunAt,
});

export async function schedulesOf(db: Db, reportId: number): Promise<ScheduleRecord[]> {
  const rows = await db
    .selectFrom('report_schedules')
    .selectAll()
    .where('report_id', '=', reportId)
    .orderBy('id')
    .execute();
  return rows.map(scheduleOut);
}

export async function scheduleById(db: Db, id: number): Promise<ScheduleRecord | undefined> {
  const row = await db.selectFrom('report_schedules').selectAll().where('id', '=', id).executeTakeFirst();
  return row && scheduleOut(row);
}

export async function insertSchedule(
  db: Db,
  reportId: number,
  input: ReportScheduleInput,
  nextRunAt: string | null,
  stamp: string,
): Promise<number> {
  const { id } = await db
    .insertInto('report_schedules')
    .values({
      report_id: reportId,
      ...columns(input, nextRunAt),
      lease_until: null,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Changes a schedule; a run under way keeps its lease and does not move the new next run. */
export async function updateSchedule(
  db: Db,
  id: number,
  input: ReportScheduleInput,
  nextRunAt: string | null,
  stamp: string,
): Promise<boolean> {
  const { numUpdatedRows } = await db
    .updateTable('report_schedules')
    .set({ ...columns(input, nextRunAt), updated_at: stamp })
    .where('id', '=', id)
    .executeTakeFirst();
  return numUpdatedRows > 0n;
}

export async function deleteSchedule(db: Db, id: number): Promise<boolean> {
  const { numDeletedRows } = await db.deleteFrom('report_schedules').where('id', '=', id).executeTakeFirst();
  return numDeletedRows > 0n;
}

/** Enabled schedules due at `stamp` that no process holds. */
export async function dueSchedules(db: Db, stamp: string, limit: number): Promise<ScheduleRecord[]> {
  const rows = await db
    .selectFrom('report_schedules')
    .selectAll()
    .where('enabled', '=', 1)
    .where('next_run_at', '<=', stamp)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', stamp)]))
    .orderBy('next_run_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(scheduleOut);
}

/**
 * Takes the due run of a schedule for one process until `leaseUntil`: a conditional update that
 * only one of several racing processes wins (the alarm outbox's claim, docs/report-schedules.md).
 */
export async function claim(db: Db, s: ScheduleRecord, stamp: string, leaseUntil: string): Promise<boolean> {
  if (s.nextRunAt === null) return false;
  const { numUpdatedRows } = await db
    .updateTable('report_schedules')
    .set({ lease_until: leaseUntil })
    .where('id', '=', s.id)
    .where('enabled', '=', 1)
    .where('next_run_at', '=', s.nextRunAt)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', stamp)]))
    .executeTakeFirst();
  return numUpdatedRows === 1n;
}

/**
 * Ends a claim: moves the schedule to `next` unless it was changed meanwhile (a change already
 * set its next run), then gives the lease up. `next` null gives the run back (due again at once).
 */
export async function finishClaim(
  db: Db,
  s: ScheduleRecord,
  leaseUntil: string,
  next: string | null,
): Promise<void> {
  if (next !== null && s.nextRunAt !== null) {
    await db
      .updateTable('report_schedules')
      .set({ next_run_at: next })
      .where('id', '=', s.id)
      .where('next_run_at', '=', s.nextRunAt)
      .where('lease_until', '=', leaseUntil)
      .execute();
  }
  await db
    .updateTable('report_schedules')
    .set({ lease_until: null })
    .where('id', '=', s.id)
    .where('lease_until', '=', leaseUntil)
    .execute();
}

export async function startRun(
  db: Db,
  run: {
    scheduleId: number;
    trigger: ReportScheduleRun['trigger'];
    startedAt: string;
    periodStart: string;
    periodEnd: string;
    recipients: readonly string[];
  },
): Promise<ReportScheduleRun> {
  const row = await db
    .insertInto('report_schedule_runs')
    .values({
      schedule_id: run.scheduleId,
      trigger: run.trigger,
      started_at: run.startedAt,
      finished_at: null,
      period_start: run.periodStart,
      period_end: run.periodEnd,
      status: 'running',
      error_code: null,
      error: '',
      recipients: JSON.stringify(run.recipients),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return runOut(row);
}

export async function finishRun(
  db: Db,
  id: number,
  outcome: { status: 'sent' | 'failed'; errorCode: ScheduleRunError | null; error: string; at: string },
): Promise<ReportScheduleRun> {
  const row = await db
    .updateTable('report_schedule_runs')
    .set({
      status: outcome.status,
      error_code: outcome.errorCode,
      error: outcome.error,
      finished_at: outcome.at,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return runOut(row);
}

/**
 * Whether a scheduled run of `scheduleId` started at or after `since` (the due time being claimed)
 * was sent: its process died before moving the schedule on, and the run is not to go twice.
 */
export async function sentSince(db: Db, scheduleId: number, since: string): Promise<boolean> {
  const row = await db
    .selectFrom('report_schedule_runs')
    .select('id')
    .where('schedule_id', '=', scheduleId)
    .where('trigger', '=', 'schedule')
    .where('status', '=', 'sent')
    .where('started_at', '>=', since)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Runs left `running` by a process that died (started before `before`) are failed as interrupted. */
export async function failAbandonedRuns(db: Db, before: string, stamp: string): Promise<void> {
  await db
    .updateTable('report_schedule_runs')
    .set({ status: 'failed', error_code: 'interrupted', error: '', finished_at: stamp })
    .where('status', '=', 'running')
    .where('started_at', '<', before)
    .execute();
}

export async function runsOf(db: Db, scheduleId: number, limit: number): Promise<ReportScheduleRun[]> {
  const rows = await db
    .selectFrom('report_schedule_runs')
    .selectAll()
    .where('schedule_id', '=', scheduleId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(runOut);
}

/** The newest run of each schedule of `scheduleIds`. */
export async function lastRuns(
  db: Db,
  scheduleIds: readonly number[],
): Promise<Map<number, ReportScheduleRun>> {
  if (scheduleIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('report_schedule_runs')
    .selectAll()
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('report_schedule_runs')
        .select((e) => e.fn.max('id').as('id'))
        .where('schedule_id', 'in', scheduleIds)
        .groupBy('schedule_id'),
    )
    .execute();
  return new Map(rows.map((r) => [r.schedule_id, runOut(r)]));
}

/**
 * Deletes finished runs started before `before`, except each schedule's newest run (its list
 * still says how it last went); answers how many went.
 */
export async function pruneRuns(db: Db, before: string): Promise<number> {
  const result = await db
    .deleteFrom('report_schedule_runs')
    .where('started_at', '<', before)
    .where('status', '<>', 'running')
    .where('id', 'not in', (eb) =>
      eb
        .selectFrom('report_schedule_runs')
        .select((e) => e.fn.max('id').as('id'))
        .groupBy('schedule_id'),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
