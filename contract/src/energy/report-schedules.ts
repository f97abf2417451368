import { type Static, Type } from 'typebox';
import { IdParams, Ok } from '../common.ts';
import { LANGUAGES } from '../constants.ts';
import { endpoint } from '../endpoint.ts';

/**
 * Scheduled reports (issue 12, docs/report-schedules.md): a KPI report mailed as xlsx daily, weekly
 * or monthly at a time of day in the plant's zone, covering the previous full day, week (Monday to
 * Sunday) or month on the plant calendar, through the alarm centre's SMTP settings. Every run is
 * kept with its period, status and error.
 */

export const SCHEDULE_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type ScheduleFrequency = (typeof SCHEDULE_FREQUENCIES)[number];

export const SCHEDULE_RUN_STATUSES = ['running', 'sent', 'failed'] as const;
export type ScheduleRunStatus = (typeof SCHEDULE_RUN_STATUSES)[number];

/**
 * Why a run failed: no SMTP server set in the alarm centre; the mail server refused or was not
 * reached; the report could not be built (deleted components, a store error); the server stopped
 * during the run (it runs again at the next start).
 */
export const SCHEDULE_RUN_ERRORS = ['smtpNotConfigured', 'sendFailed', 'buildFailed', 'interrupted'] as const;
export type ScheduleRunError = (typeof SCHEDULE_RUN_ERRORS)[number];

/** Recipients one schedule mails at most. */
export const SCHEDULE_MAX_RECIPIENTS = 20;
/** Runs `GET …/runs` answers, newest first. */
export const SCHEDULE_RUNS_LISTED = 20;
/**
 * The sys_configs identifier of how many days schedule runs are kept (a whole number 1–3650,
 * default SCHEDULE_RUN_RETENTION_DAYS); the runner prunes older runs, keeping each schedule's last.
 */
export const SCHEDULE_RUN_RETENTION_IDENTIFIER = 'scheduleRunRetentionDays';
export const SCHEDULE_RUN_RETENTION_DAYS = 180;
export const SCHEDULE_RUN_RETENTION_MAX_DAYS = 3650;

/** `HH:mm`, 24-hour, in the plant's zone. */
export const SCHEDULE_TIME_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
/** An e-mail address as the alarm centre's recipients take it. */
export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$';

export const ReportScheduleInput = Type.Object({
  frequency: Type.Enum(SCHEDULE_FREQUENCIES),
  /** weekly: ISO weekday, 1 Monday … 7 Sunday (kept but unused by other frequencies). */
  weekday: Type.Integer({ minimum: 1, maximum: 7 }),
  /** monthly: day of the month; past a short month's end it runs on its last day. */
  monthDay: Type.Integer({ minimum: 1, maximum: 31 }),
  time: Type.String({ pattern: SCHEDULE_TIME_PATTERN }),
  recipients: Type.Array(Type.String({ maxLength: 254, pattern: EMAIL_PATTERN }), {
    minItems: 1,
    maxItems: SCHEDULE_MAX_RECIPIENTS,
    uniqueItems: true,
  }),
  /** Language of the file and the mail. */
  language: Type.Enum(LANGUAGES),
  enabled: Type.Boolean(),
});
export type ReportScheduleInput = Static<typeof ReportScheduleInput>;

export const ReportScheduleRun = Type.Object({
  id: Type.Integer(),
  scheduleId: Type.Integer(),
  /** `schedule`: the runner at the due time; `manual`: "send now". */
  trigger: Type.Enum(['schedule', 'manual'] as const),
  startedAt: Type.String(),
  finishedAt: Type.Union([Type.String(), Type.Null()]),
  /** The period the file covers, [start, end) as ISO instants. */
  periodStart: Type.String(),
  periodEnd: Type.String(),
  status: Type.Enum(SCHEDULE_RUN_STATUSES),
  errorCode: Type.Union([Type.Enum(SCHEDULE_RUN_ERRORS), Type.Null()]),
  /** The failure as the mail server or the builder said it ('' when none). */
  error: Type.String(),
  recipients: Type.Array(Type.String()),
});
export type ReportScheduleRun = Static<typeof ReportScheduleRun>;

export const ReportSchedule = Type.Object({
  id: Type.Integer(),
  reportId: Type.Integer(),
  ...ReportScheduleInput.properties,
  /** When the runner sends next (ISO), on the plant calendar; null while disabled. */
  nextRunAt: Type.Union([Type.String(), Type.Null()]),
  lastRun: Type.Union([ReportScheduleRun, Type.Null()]),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type ReportSchedule = Static<typeof ReportSchedule>;

export const reportScheduleList = endpoint({
  method: 'GET',
  path: '/api/reports/:id/schedules',
  params: IdParams,
  response: Type.Array(ReportSchedule),
  tags: ['reports'],
  summary: "A report's schedules, with the next run and the last",
  description: '404 unknown report; 422 a folder.',
});

export const reportScheduleCreate = endpoint({
  method: 'POST',
  path: '/api/reports/:id/schedules',
  params: IdParams,
  body: ReportScheduleInput,
  response: ReportSchedule,
  tags: ['reports'],
  summary: 'Schedule a report to be mailed as xlsx',
  description: '404 unknown report; 422 a folder.',
});

export const reportScheduleUpdate = endpoint({
  method: 'PUT',
  path: '/api/report-schedules/:id',
  params: IdParams,
  body: ReportScheduleInput,
  response: ReportSchedule,
  tags: ['reports'],
  summary: 'Change a schedule; its next run is computed again from now',
});

export const reportScheduleDelete = endpoint({
  method: 'DELETE',
  path: '/api/report-schedules/:id',
  params: IdParams,
  response: Ok,
  tags: ['reports'],
  summary: 'Delete a schedule and its run history',
});

export const reportScheduleRuns = endpoint({
  method: 'GET',
  path: '/api/report-schedules/:id/runs',
  params: IdParams,
  response: Type.Array(ReportScheduleRun),
  tags: ['reports'],
  summary: "A schedule's last runs, newest first",
});

export const reportScheduleSend = endpoint({
  method: 'POST',
  path: '/api/report-schedules/:id/send',
  params: IdParams,
  response: ReportScheduleRun,
  tags: ['reports'],
  summary: 'Send now: builds and mails the last full period at once and answers the run',
  description:
    'A failed send (no SMTP server, the mail server refusing) is a run with status failed, not an error answer.',
});
