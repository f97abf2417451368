import { type GroupByTime, type Period, toMillis } from '@kilowatch/contract';
import dayjs from 'dayjs';

/**
 * Calendar periods of the home and analysis charts (spec §3 chart time range, §9 label formats
 * and year-on-year options). Times are ms; 10-digit values are taken as seconds.
 */

export type { Period };

/** Spec §9: year YYYY-MM, month MM-DD, day HH:00. */
export const PERIOD_LABEL_FORMAT: Record<Period, string> = { year: 'YYYY-MM', month: 'MM-DD', day: 'HH:00' };

/** The bucket of each period: a day by hours, a month by days, a year by months. */
export const PERIOD_BUCKET: Record<Period, GroupByTime> = { day: 'hour', month: 'day', year: 'month' };

/** @example formatPeriodLabel(dayjs('2024-03-05 14:00').valueOf(), 'day') // '14:00' */
export const formatPeriodLabel = (time: number, period: Period): string =>
  dayjs(toMillis(time)).format(PERIOD_LABEL_FORMAT[period]);

/** [start, end) of the calendar period that holds `time`. */
export function periodRange(period: Period, time: number): { start: number; end: number } {
  const start = dayjs(toMillis(time)).startOf(period);
  return { start: start.valueOf(), end: start.add(1, period).valueOf() };
}

/** Every bucket start of a period, for a category axis that shows the whole day/month/year. */
export function periodBuckets(period: Period, time: number): number[] {
  const { start, end } = periodRange(period, time);
  const unit = PERIOD_BUCKET[period];
  const keys: number[] = [];
  for (let t = dayjs(start); t.valueOf() < end; t = t.add(1, unit)) keys.push(t.valueOf());
  return keys;
}

/** Year-on-year options of spec §9. */
export const YOY_OPTIONS = ['none', 'yesterday', 'lastWeek', 'date'] as const;
export type YoyOption = (typeof YOY_OPTIONS)[number];

/** Hours back of the fixed options: yesterday -24 h, lastWeek -168 h. */
export const YOY_HOURS = { yesterday: 24, lastWeek: 168 } as const;

export interface Shift {
  amount: number;
  unit: 'hour' | 'day' | 'month' | 'year';
}

/**
 * How far back the comparison lies: -24 h, -168 h, or for a chosen date the whole periods
 * between the base period and the chosen one (in days, months or years, so calendars line up).
 * Null when there is no comparison.
 * @example yoyShift('yesterday', 'day', base) // { amount: -24, unit: 'hour' }
 */
export function yoyShift(
  option: YoyOption,
  period: Period,
  baseTime: number,
  compareTime?: number | null,
): Shift | null {
  if (option === 'yesterday') return { amount: -YOY_HOURS.yesterday, unit: 'hour' };
  if (option === 'lastWeek') return { amount: -YOY_HOURS.lastWeek, unit: 'hour' };
  if (option !== 'date' || compareTime == null) return null;
  const unit = period === 'day' ? 'day' : period;
  const amount = dayjs(toMillis(compareTime))
    .startOf(period)
    .diff(dayjs(toMillis(baseTime)).startOf(period), unit);
  return amount === 0 ? null : { amount, unit };
}

/** Moves a time by a shift (calendar-aware). */
export const shiftTime = (time: number, shift: Shift): number =>
  dayjs(toMillis(time)).add(shift.amount, shift.unit).valueOf();

/** The opposite shift: brings comparison points back onto the base axis. */
export const invertShift = (shift: Shift): Shift => ({ amount: -shift.amount, unit: shift.unit });

/** Shifts every point's key; the comparison series then shares the base series' axis. */
export const shiftPoints = <P extends { key: number }>(points: readonly P[], shift: Shift): P[] =>
  points.map((p) => ({ ...p, key: shiftTime(p.key, shift) }));
