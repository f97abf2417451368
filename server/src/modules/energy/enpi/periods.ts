import { type EnpiPeriod, PlantCalendar } from '@kilowatch/contract';

/**
 * EnPI periods on local day numbers of the plant calendar (days since 1970-01-01 in the plant's
 * zone): a day, an ISO week (Monday first) or a calendar month, each named by its first day.
 */

const DAY_MS = 86_400_000;

/** First day of the period holding local day `day`. */
export function periodStart(period: EnpiPeriod, day: number): number {
  if (period === 'day') return day;
  // Day 0 (1970-01-01) was a Thursday: (day + 3) mod 7 is 0 on Mondays.
  if (period === 'week') return day - ((((day + 3) % 7) + 7) % 7);
  return PlantCalendar.firstDayOfMonth(PlantCalendar.monthOfDay(day));
}

/** First day of the period after the one starting on `start`. */
export function nextPeriod(period: EnpiPeriod, start: number): number {
  if (period === 'day') return start + 1;
  if (period === 'week') return start + 7;
  return PlantCalendar.firstDayOfMonth(PlantCalendar.monthOfDay(start) + 1);
}

/** `YYYY-MM-DD` of a local day number. */
export const dateOfDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** A period's label: `YYYY-MM` for months, its first day otherwise. */
export const periodLabel = (period: EnpiPeriod, start: number): string =>
  period === 'month' ? dateOfDay(start).slice(0, 7) : dateOfDay(start);

/** The first days of the periods covering local days [from, to] (inclusive). */
export function periodStarts(period: EnpiPeriod, from: number, to: number): number[] {
  const out: number[] = [];
  for (let d = periodStart(period, from); d <= to; d = nextPeriod(period, d)) out.push(d);
  return out;
}
