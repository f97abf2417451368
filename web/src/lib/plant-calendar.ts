import { PlantCalendar, processTimeZone } from '@kilowatch/contract';
import dayjs, { type Dayjs } from 'dayjs';
import { useSession } from './session.ts';

/**
 * The plant's calendar in the console: the zone comes from the server (`timeZone` of
 * /api/auth/me, which the guard loads before any screen), so dates, periods, their labels and
 * comparisons are read on the same calendar as the server's buckets, not the browser's zone.
 * Before sign-in there is no plant zone to know; the browser's stands in.
 */

const calendars = new Map<string, PlantCalendar>();

/** One calendar per zone: each keeps its own offset cache. */
export function calendarOf(timeZone: string): PlantCalendar {
  let calendar = calendars.get(timeZone);
  if (!calendar) {
    calendar = new PlantCalendar(timeZone);
    calendars.set(timeZone, calendar);
  }
  return calendar;
}

/** The plant's zone as the server told it (the browser's before sign-in). */
export const plantZone = (): string => useSession.getState().user?.timeZone || processTimeZone();

/** The plant calendar outside React (exports, formatters built once). */
export const plantCalendar = (): PlantCalendar => calendarOf(plantZone());

/** The plant calendar in a component; changes when the signed-in user (and so the zone) does. */
export function usePlantCalendar(): PlantCalendar {
  const zone = useSession((s) => s.user?.timeZone) || processTimeZone();
  return calendarOf(zone);
}

/**
 * An instant (ms or an ISO string) as the plant's wall-clock time, `YYYY-MM-DD HH:mm:ss`; empty
 * for none. Every time a user reads is the plant's, like the charts' axes and the server's buckets.
 */
export function formatPlantTime(at: number | string | null | undefined): string {
  if (at === null || at === undefined || at === '') return '';
  const ms = typeof at === 'number' ? at : Date.parse(at);
  return Number.isFinite(ms) ? plantCalendar().format(ms, 'YYYY-MM-DD HH:mm:ss') : '';
}

/**
 * antd's date pickers hold a dayjs in the browser's zone. These carry the plant's wall-clock
 * time across unchanged, so a picker shows and returns the plant's time.
 */
export const toPicker = (calendar: PlantCalendar, at: number): Dayjs =>
  dayjs(calendar.format(at, 'YYYY-MM-DDTHH:mm:ss'));

export const fromPicker = (calendar: PlantCalendar, d: Dayjs): number =>
  calendar.fromWall(Date.UTC(d.year(), d.month(), d.date(), d.hour(), d.minute(), d.second()));
