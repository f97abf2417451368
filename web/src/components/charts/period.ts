import { type Period, type PlantCalendar, type QueryComparison, toMillis } from '@kilowatch/contract';

/**
 * Calendar periods of the home and analysis charts (spec §3 chart time range, §9 label formats
 * and year-on-year options), read on the plant calendar (contract PlantCalendar, the server's
 * own), never in the browser's zone. Times are ms; 10-digit values are taken as seconds.
 */

export type { Period };

/** Spec §9 on the plant calendar: @example formatPeriodLabel(t, 'day', calendar) // '14:00' */
export const formatPeriodLabel = (time: number, period: Period, calendar: PlantCalendar): string =>
  calendar.periodLabel(period, toMillis(time));

/** [start, end) of the plant's calendar period that holds `time`. */
export const periodRange = (period: Period, time: number, calendar: PlantCalendar) =>
  calendar.periodRange(period, toMillis(time));

/** Every bucket start of a period (the server's bucket keys), for a category axis of the whole period. */
export const periodBuckets = (period: Period, time: number, calendar: PlantCalendar): number[] =>
  calendar.periodBuckets(period, toMillis(time));

/** Year-on-year options of spec §9. */
export const YOY_OPTIONS = ['none', 'yesterday', 'lastWeek', 'date'] as const;
export type YoyOption = (typeof YOY_OPTIONS)[number];

/** Hours back of the fixed options: yesterday -24 h, lastWeek -168 h. */
const YOY_HOURS = { yesterday: 24, lastWeek: 168 } as const;

/**
 * The query's `compare` for a year-on-year option: -24 h, -168 h, or the period that holds the
 * chosen date (the server moves by whole days, months or years on the plant calendar). Null
 * when there is no comparison, or the chosen date lies in the period shown.
 * @example yoyCompare('yesterday', 'day', base, null, calendar) // { shift: { amount: -24, unit: 'hour' } }
 */
export function yoyCompare(
  option: YoyOption,
  period: Period,
  baseTime: number,
  compareTime: number | null,
  calendar: PlantCalendar,
): QueryComparison | null {
  if (option === 'yesterday') return { shift: { amount: -YOY_HOURS.yesterday, unit: 'hour' } };
  if (option === 'lastWeek') return { shift: { amount: -YOY_HOURS.lastWeek, unit: 'hour' } };
  if (option !== 'date' || compareTime == null) return null;
  const at = calendar.periodRange(period, toMillis(compareTime)).start;
  return at === calendar.periodRange(period, toMillis(baseTime)).start ? null : { startTime: at };
}
