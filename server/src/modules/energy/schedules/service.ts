import {
  type PlantCalendar,
  type ReportSchedule,
  type ReportScheduleInput,
  type ReportScheduleRun,
  SCHEDULE_RUNS_LISTED,
  type ScheduleRunError,
} from '@kilowatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/index.ts';
import { AppError } from '../../../errors.ts';
import { translate } from '../../../i18n/index.ts';
import { type Mail, SmtpNotConfigured } from '../../mail/index.ts';
import type { QueryService } from '../../query/index.ts';
import { reportWorkbook } from '../reports/output.ts';
import type { ReportsService } from '../reports/service.ts';
import { XLSX } from '../sheets.ts';
import * as repo from './repository.ts';
import { latestRun, nextRun, periodBefore, periodText, workbookPeriod } from './time.ts';

export interface ReportSchedulesDeps {
  db: Kysely<DB>;
  now: () => number;
  /** The plant calendar (PLANT_TIMEZONE): a run's period and its mail's times. */
  calendar: PlantCalendar;
  reports: Pick<ReportsService, 'reportWithComponents'>;
  query: Pick<QueryService, 'data'>;
  /** The plant's name said above each sheet's table (its first root region); null without one. */
  plant?: () => Promise<string | null>;
  /** The alarm centre's mail (its SMTP settings); throws SmtpNotConfigured when none is set. */
  mailer: { send(mail: Mail, stop?: AbortSignal): Promise<void> };
  log: { error(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
  /** Days runs are kept (the system setting scheduleRunRetentionDays, read at each prune). */
  retentionDays: () => Promise<number>;
  /** How often due schedules are looked for, ms. */
  pollMs?: number;
}

/**
 * How long a claimed run is held by the process sending it: well beyond building a report and an
 * SMTP send (15 s per step); a process that died mid-run frees the schedule after this and another
 * sends it (docs/report-schedules.md).
 */
const SCHEDULE_LEASE_MS = 10 * 60_000;
/** How often the runner prunes runs older than the retention (scheduleRunRetentionDays). */
const PRUNE_EVERY_MS = 60 * 60_000;
/** Due schedules taken per look; the rest are taken at the next. */
const PER_LOOK = 20;

const iso = (ms: number) => new Date(ms).toISOString();
const notFound = (id: number) =>
  new AppError('NOT_FOUND', 404, { id }, { message: 'reportSchedules.notFound' });
const reason = (error: unknown) =>
  error instanceof Error
    ? error.cause instanceof Error
      ? `${error.message}: ${error.cause.message}`
      : error.message
    : String(error);

/**
 * Scheduled reports: CRUD of a report's schedules, their run history, "send now", and the runner
 * that sends what is due. A run builds the report's xlsx with the export's own code
 * (`reportWorkbook`) over the previous full day, week or month on the plant calendar, and mails it
 * through the alarm centre's SMTP settings; a failure (no SMTP server, a refusing mail server, a
 * report that cannot be built) is recorded in the run, never thrown.
 */
export function createReportSchedules(deps: ReportSchedulesDeps) {
  const { db, now, log, calendar } = deps;
  const { timeZone } = calendar;
  let timer: NodeJS.Timeout | undefined;
  let looking: Promise<void> | undefined;
  /** The claimed run under way, if any: stop() waits for it (cut short), not for reads. */
  let running: Promise<void> | undefined;
  let stopped = true;
  /** Aborted by stop(): a send under way gives up and its run is due again at the next start. */
  let stopping = new AbortController();
  /** When the runner last pruned old runs; the first look prunes. */
  let prunedAt = Number.NEGATIVE_INFINITY;

  const nextRunAt = (input: ReportScheduleInput): string | null =>
    input.enabled ? iso(nextRun(input, now(), calendar)) : null;

  async function withLastRuns(records: repo.ScheduleRecord[]): Promise<ReportSchedule[]> {
    const last = await repo.lastRuns(
      db,
      records.map((r) => r.id),
    );
    return records.map(({ leaseUntil: _, ...r }) => ({ ...r, lastRun: last.get(r.id) ?? null }));
  }

  async function scheduleOf(id: number): Promise<repo.ScheduleRecord> {
    const found = await repo.scheduleById(db, id);
    if (!found) throw notFound(id);
    return found;
  }

  /** Builds the report over the stretch before `at` and mails it; the outcome is the run's. */
  async function execute(
    s: repo.ScheduleRecord,
    trigger: ReportScheduleRun['trigger'],
    at: number,
  ): Promise<ReportScheduleRun> {
    const range = periodBefore(s.frequency, at, calendar);
    const run = await repo.startRun(db, {
      scheduleId: s.id,
      trigger,
      startedAt: iso(now()),
      periodStart: iso(range.start),
      periodEnd: iso(range.end),
      recipients: s.recipients,
    });
    const fail = (errorCode: ScheduleRunError, error: string) =>
      repo.finishRun(db, run.id, { status: 'failed', errorCode, error, at: iso(now()) });

    let mail: Mail;
    try {
      const report = await deps.reports.reportWithComponents(s.reportId);
      const content = await reportWorkbook({
        ...report,
        ...workbookPeriod(s.frequency, range),
        language: s.language,
        calendar,
        timeZone,
        ask: (q) => deps.query.data(q, null),
        plant: deps.plant ? await deps.plant() : null,
      });
      const period = periodText(s.frequency, range, calendar);
      const params = { report: report.name, period, zone: timeZone };
      mail = {
        to: s.recipients,
        subject: translate(s.language, 'reportSchedules.mail.subject', params),
        text: translate(s.language, 'reportSchedules.mail.text', params),
        attachments: [{ filename: `${report.name}-${period}.xlsx`, content, contentType: XLSX }],
        // A scheduled run retried after a replica's death is the same mail; "send now" is a new one.
        ...(trigger === 'schedule' ? { messageId: `kilowatch-schedule-${s.id}-${at}` } : {}),
      };
    } catch (error) {
      log.warn({ err: error, scheduleId: s.id }, 'scheduled report not built');
      const why =
        error instanceof AppError && error.options.message
          ? translate(s.language, error.options.message, error.params)
          : reason(error);
      return fail('buildFailed', why);
    }
    try {
      await deps.mailer.send(mail, stopping.signal);
    } catch (error) {
      if (stopping.signal.aborted) return fail('interrupted', '');
      return fail(error instanceof SmtpNotConfigured ? 'smtpNotConfigured' : 'sendFailed', reason(error));
    }
    return repo.finishRun(db, run.id, { status: 'sent', errorCode: null, error: '', at: iso(now()) });
  }

  /** Deletes runs older than the retention setting, at most once an hour. */
  async function prune(at: number): Promise<void> {
    if (at - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = at;
    const days = await deps.retentionDays();
    await repo.pruneRuns(db, iso(at - days * 86_400_000));
  }

  /** Claims and sends every due schedule, one after the other. */
  async function sendDue(): Promise<void> {
    const at = now();
    await repo.failAbandonedRuns(db, iso(at - SCHEDULE_LEASE_MS), iso(at));
    await prune(at);
    for (const s of await repo.dueSchedules(db, iso(at), PER_LOOK)) {
      if (stopped) return;
      // Runs of one look go one after the other: each lease starts when its claim is made.
      const claimedAt = now();
      const lease = iso(claimedAt + SCHEDULE_LEASE_MS);
      if (!(await repo.claim(db, s, iso(claimedAt), lease))) continue;
      running = runClaimed(s, lease, claimedAt);
      try {
        await running;
      } finally {
        running = undefined;
      }
    }
  }

  async function runClaimed(s: repo.ScheduleRecord, lease: string, at: number): Promise<void> {
    // A runner stopped over several due times sends once, for the latest of them.
    const fired = latestRun(s, Date.parse(s.nextRunAt ?? iso(at)), at, calendar);
    // A replica killed after sending this due time's run but before moving the schedule on left
    // it due: its lease over, the run is not sent again, only the schedule moves (docs/cluster.md).
    if (s.nextRunAt !== null && (await repo.sentSince(db, s.id, s.nextRunAt))) {
      await repo.finishClaim(db, s, lease, iso(nextRun(s, fired, calendar)));
      return;
    }
    const run = await execute(s, 'schedule', fired).catch(async (error: unknown) => {
      await repo.finishClaim(db, s, lease, null);
      throw error;
    });
    const interrupted = run.errorCode === 'interrupted';
    await repo.finishClaim(db, s, lease, interrupted ? null : iso(nextRun(s, fired, calendar)));
  }

  function look(): Promise<void> {
    if (stopped) return Promise.resolve();
    looking ??= sendDue()
      .catch((error: unknown) => log.error({ err: error }, 'scheduled reports not run'))
      .finally(() => {
        looking = undefined;
      });
    return looking;
  }

  return {
    async list(reportId: number): Promise<ReportSchedule[]> {
      await deps.reports.reportWithComponents(reportId);
      return withLastRuns(await repo.schedulesOf(db, reportId));
    },

    async create(reportId: number, input: ReportScheduleInput): Promise<ReportSchedule> {
      await deps.reports.reportWithComponents(reportId);
      const id = await repo.insertSchedule(db, reportId, input, nextRunAt(input), iso(now()));
      const [created] = await withLastRuns([await scheduleOf(id)]);
      if (!created) throw notFound(id);
      return created;
    },

    async update(id: number, input: ReportScheduleInput): Promise<ReportSchedule> {
      if (!(await repo.updateSchedule(db, id, input, nextRunAt(input), iso(now())))) throw notFound(id);
      const [updated] = await withLastRuns([await scheduleOf(id)]);
      if (!updated) throw notFound(id);
      return updated;
    },

    async remove(id: number): Promise<void> {
      if (!(await repo.deleteSchedule(db, id))) throw notFound(id);
    },

    async runs(id: number): Promise<ReportScheduleRun[]> {
      await scheduleOf(id);
      return repo.runsOf(db, id, SCHEDULE_RUNS_LISTED);
    },

    /** "Send now": the last full period before now, at once, outside the schedule's timing. */
    async sendNow(id: number): Promise<ReportScheduleRun> {
      return execute(await scheduleOf(id), 'manual', now());
    },

    start(): void {
      stopped = false;
      if (stopping.signal.aborted) stopping = new AbortController();
      timer = setInterval(() => void look(), deps.pollMs ?? 30_000);
      timer.unref();
      void look();
    },

    /**
     * Stops looking; a send under way is cut short and its run is due again at the next start. A
     * look at the database in progress is not waited for (it starts no run once stopped), so a
     * database going away under it does not hold the shutdown, as with the alarm notifier.
     */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      stopping.abort();
      // Its failure is logged where it is awaited (look); here only its end matters.
      await running?.catch(() => undefined);
    },

    /** Claims and sends what is due now and waits (tests drive the clock). */
    async runDue(): Promise<void> {
      const was = stopped;
      stopped = false;
      if (stopping.signal.aborted) stopping = new AbortController();
      try {
        await look();
      } finally {
        stopped = was;
      }
    },
  };
}

export type ReportSchedules = ReturnType<typeof createReportSchedules>;
