/**
 * The tariff calendar's rules as pure functions, shared by the server (validation, pricing) and the
 * console (the editor's checks, the band strip of a chosen day): which version, season, day type and
 * band a local day and minute fall in. Dates are local dates of the plant's zone.
 */
import { DAY } from '../calendar.ts';
import type { BandKind, BandSpan, DayType, Season, TariffVersionBody } from './tariffs.ts';

export const MINUTES_PER_DAY = 1440;

/** Minutes since midnight of `HH:mm` (`24:00` is 1440). */
export const minuteOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** `HH:mm` of minutes since midnight. */
export const timeOf = (minute: number): string =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/** What is wrong with a version, as a code and its parameters (the server words it in three languages). */
export type TariffIssue =
  | { code: 'badMonthDay'; season: string; value: string }
  | { code: 'seasonGap'; at: string }
  | { code: 'seasonOverlap'; at: string }
  | { code: 'bandEmpty'; season: string; dayType: DayType; at: string }
  | { code: 'bandGap'; season: string; dayType: DayType; at: string }
  | { code: 'bandOverlap'; season: string; dayType: DayType; at: string }
  | { code: 'missingPrice'; band: BandKind }
  | { code: 'badDate'; value: string };

/** Day of the leap year 2000 (0–365) of `MM-DD`, or null when no such day exists. */
export function monthDayIndex(md: string): number | null {
  const m = /^(\d{2})-(\d{2})$/.exec(md);
  if (!m) return null;
  const month = Number(m[1]);
  const day = Number(m[2]);
  const ms = Date.UTC(2000, month - 1, day);
  const back = new Date(ms);
  if (back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return null;
  return Math.round((ms - Date.UTC(2000, 0, 1)) / DAY);
}

const monthDayOfIndex = (i: number): string =>
  new Date(Date.UTC(2000, 0, 1) + i * DAY).toISOString().slice(5, 10);

/** Whether `YYYY-MM-DD` is a real date. */
export function isLocalDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return (
    d.getUTCFullYear() === Number(m[1]) &&
    d.getUTCMonth() === Number(m[2]) - 1 &&
    d.getUTCDate() === Number(m[3])
  );
}

/**
 * The band of every minute of a day from its spans, or the first problem: spans must cover
 * 00:00–24:00 with no gap and no overlap (and each must end after it starts).
 */
export function bandsOfDay(
  spans: readonly BandSpan[],
): { minutes: (BandKind | null)[] } | { problem: 'bandEmpty' | 'bandGap' | 'bandOverlap'; at: string } {
  const sorted = [...spans].sort((a, b) => minuteOf(a.from) - minuteOf(b.from));
  const minutes = new Array<BandKind | null>(MINUTES_PER_DAY).fill(null);
  let cursor = 0;
  for (const s of sorted) {
    const from = minuteOf(s.from);
    const to = minuteOf(s.to);
    if (to <= from) return { problem: 'bandEmpty', at: s.from };
    if (from < cursor) return { problem: 'bandOverlap', at: s.from };
    if (from > cursor) return { problem: 'bandGap', at: timeOf(cursor) };
    minutes.fill(s.band, from, to);
    cursor = to;
  }
  if (cursor < MINUTES_PER_DAY) return { problem: 'bandGap', at: timeOf(cursor) };
  return { minutes };
}

/** The month-days of a season, as indexes of the leap year 2000 (wrapping over the new year). */
function seasonDays(season: Season): number[] | null {
  const from = monthDayIndex(season.from);
  const to = monthDayIndex(season.to);
  if (from === null || to === null) return null;
  const days: number[] = [];
  for (let i = from; ; i = (i + 1) % 366) {
    days.push(i);
    if (i === to) break;
  }
  return days;
}

/** The first problem of a version, or null: seasons cover every day of the year once, bands every minute once. */
export function checkVersion(v: TariffVersionBody): TariffIssue | null {
  if (!isLocalDate(v.validFrom)) return { code: 'badDate', value: v.validFrom };
  const owner = new Array<string | null>(366).fill(null);
  for (const season of v.seasons) {
    for (const value of [season.from, season.to]) {
      if (monthDayIndex(value) === null) return { code: 'badMonthDay', season: season.name, value };
    }
    for (const i of seasonDays(season) ?? []) {
      if (owner[i] !== null) return { code: 'seasonOverlap', at: monthDayOfIndex(i) };
      owner[i] = season.name;
    }
  }
  const gap = owner.indexOf(null);
  if (gap >= 0) return { code: 'seasonGap', at: monthDayOfIndex(gap) };
  const used = new Set<BandKind>();
  for (const season of v.seasons) {
    for (const dayType of ['workday', 'weekend', 'holiday'] as const) {
      const day = bandsOfDay(season[dayType]);
      if ('problem' in day) return { code: day.problem, season: season.name, dayType, at: day.at };
      for (const s of season[dayType]) used.add(s.band);
    }
  }
  for (const band of used) {
    if (v.prices[band] === undefined) return { code: 'missingPrice', band };
  }
  return null;
}

/** What decides a day's type: the tariff's holiday and make-up working day lists and its weekend. */
export interface DayRules {
  holidays: readonly string[];
  workdays: readonly string[];
  weekendDays: readonly number[];
}

/** ISO weekday (1 Monday … 7 Sunday) of a local date. */
export function isoWeekday(date: string): number {
  const day = Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY);
  return ((day + 3) % 7) + 1;
}

/** Holiday if listed; a make-up working day if listed; else weekend or working day by weekday (no weekend days: every day works). */
export function dayTypeOf(rules: DayRules, date: string): DayType {
  if (rules.holidays.includes(date)) return 'holiday';
  if (rules.workdays.includes(date)) return 'workday';
  return rules.weekendDays.includes(isoWeekday(date)) ? 'weekend' : 'workday';
}

/** The version valid on a local date: the latest starting on or before it (versions oldest first). */
export function versionOn<V extends { validFrom: string }>(
  versions: readonly V[],
  date: string,
): V | undefined {
  let found: V | undefined;
  for (const v of versions) {
    if (v.validFrom <= date) found = v;
    else break;
  }
  return found;
}

/** The season of a version holding a local date. */
export function seasonOn(version: TariffVersionBody, date: string): Season | undefined {
  const i = monthDayIndex(date.slice(5));
  if (i === null) return undefined;
  return version.seasons.find((s) => seasonDays(s)?.includes(i));
}

/** One stretch of a day in one band, for the band strip. */
export interface DayStretch {
  band: BandKind;
  from: number;
  to: number;
  price: number | null;
}

/**
 * The bands of a local date under a tariff: its version, season, day type and the stretches of
 * the day (adjacent spans of one band merged), or null before the first version.
 */
export function dayPlan<V extends TariffVersionBody>(
  rules: DayRules,
  versions: readonly V[],
  date: string,
): { version: V; season: Season; dayType: DayType; stretches: DayStretch[] } | null {
  const version = versionOn(versions, date);
  if (!version) return null;
  const season = seasonOn(version, date);
  if (!season) return null;
  const dayType = dayTypeOf(rules, date);
  const stretches: DayStretch[] = [];
  for (const s of [...season[dayType]].sort((a, b) => minuteOf(a.from) - minuteOf(b.from))) {
    const last = stretches.at(-1);
    const from = minuteOf(s.from);
    if (last && last.band === s.band && last.to === from) last.to = minuteOf(s.to);
    else stretches.push({ band: s.band, from, to: minuteOf(s.to), price: version.prices[s.band] ?? null });
  }
  return { version, season, dayType, stretches };
}
