import { DAY, MINUTE, type Period, PlantCalendar, type ScheduleFrequency } from '@kilowatch/contract';

/** When a schedule fires: its frequency, weekday (weekly), day of month (monthly) and `HH:mm`. */
export interface ScheduleTiming {
  frequency: ScheduleFrequency;
  weekday: number;
  monthDay: number;
  time: string;
}

/** ISO weekday (1 Monday … 7 Sunday) of a local day number (day 0, 1970-01-01, was a Thursday). */
export const weekdayOf = (day: number): number => ((((day + 3) % 7) + 7) % 7) + 1;

/** Whether the schedule fires on local day `day`: a monthly day past a short month's end means its last day. */
function firesOn(timing: ScheduleTiming, day: number): boolean {
  if (timing.frequency === 'daily') return true;
  if (timing.frequency === 'weekly') return weekdayOf(day) === timing.weekday;
  const month = PlantCalendar.monthOfDay(day);
  const first = PlantCalendar.firstDayOfMonth(month);
  const length = PlantCalendar.firstDayOfMonth(month + 1) - first;
  return day - first + 1 === Math.min(timing.monthDay, length);
}

/** Minutes after local midnight of `HH:mm`. */
const minutesOf = (time: string): number => {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return hours * 60 + minutes;
};

/**
 * The first instant after `after` at which the schedule fires, on the plant calendar: the wall
 * time on a day it fires on. A wall time a spring-forward gap skips fires when the clocks have moved
 * on (02:30 on Berlin's 23-hour day is 03:30 CEST); one an autumn overlap repeats fires once, the
 * first time.
 * @example nextRun({ frequency: 'daily', weekday: 1, monthDay: 1, time: '07:00' }, Date.UTC(2026, 10, 24, 0), new PlantCalendar('Asia/Shanghai')) // 2026-11-24T23:00Z
 */
export function nextRun(timing: ScheduleTiming, after: number, calendar: PlantCalendar): number {
  const minutes = minutesOf(timing.time);
  const today = calendar.dayOf(after);
  // Every frequency fires at least once in 62 days (a monthly one on its day or its month's last).
  for (let day = today; day <= today + 62; day++) {
    if (!firesOn(timing, day)) continue;
    const at = calendar.fromWall(day * DAY + minutes * MINUTE);
    if (at > after) return at;
  }
  throw new Error(`no run of ${timing.frequency} ${timing.time} within 62 days`);
}

/**
 * The last time the schedule fired at or before `now`, starting from a due run `due` (≤ now): a
 * runner that was stopped over several runs sends once, for the latest, not once per missed run.
 */
export function latestRun(timing: ScheduleTiming, due: number, now: number, calendar: PlantCalendar): number {
  let at = due;
  for (let next = nextRun(timing, at, calendar); next <= now; next = nextRun(timing, at, calendar)) at = next;
  return at;
}

/**
 * The stretch a run at `at` covers: the previous full day, week (Monday to Sunday) or month on the
 * plant calendar, before the local day holding `at`; a DST day is 23 or 25 hours long.
 */
export function periodBefore(
  frequency: ScheduleFrequency,
  at: number,
  calendar: PlantCalendar,
): { start: number; end: number } {
  const today = calendar.dayOf(at);
  if (frequency === 'daily') return { start: calendar.dayStart(today - 1), end: calendar.dayStart(today) };
  if (frequency === 'weekly') {
    const monday = today - (weekdayOf(today) - 1);
    return { start: calendar.dayStart(monday - 7), end: calendar.dayStart(monday) };
  }
  const month = PlantCalendar.monthOfDay(today);
  return {
    start: calendar.dayStart(PlantCalendar.firstDayOfMonth(month - 1)),
    end: calendar.dayStart(PlantCalendar.firstDayOfMonth(month)),
  };
}

/**
 * How the report workbook is asked for a covered stretch: a day by hours, a month by days, a week
 * by days as a stretch of the month grid (labels MM-DD).
 */
export function workbookPeriod(
  frequency: ScheduleFrequency,
  range: { start: number; end: number },
): { period: Period; time: number; range?: { start: number; end: number } } {
  if (frequency === 'daily') return { period: 'day', time: range.start };
  if (frequency === 'monthly') return { period: 'month', time: range.start };
  return { period: 'month', time: range.start, range };
}

/** The stretch as the mail and the file name say it: 2026-11-23, 2026-11-16~2026-11-22, 2026-10. */
export function periodText(
  frequency: ScheduleFrequency,
  range: { start: number; end: number },
  calendar: PlantCalendar,
): string {
  if (frequency === 'daily') return calendar.dateOf(range.start);
  if (frequency === 'monthly') return calendar.format(range.start, 'YYYY-MM');
  return `${calendar.dateOf(range.start)}~${calendar.dateOf(range.end - 1)}`;
}
