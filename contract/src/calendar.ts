/**
 * Local calendar of the plant's time zone, computed with Intl (ICU in Node and in browsers) so
 * the telemetry store does not depend on DuckDB's ICU extension, and the store, the query layer,
 * the simulator, tariffs, reports and the console count days and months with the same code. A
 * local day is numbered like a date: days since 1970-01-01 (local), and starts at the first
 * instant whose local date is that day (local midnight, or the end of a DST gap when midnight does
 * not exist). Pure TypeScript (no Node API), so the console can import it too.
 */

export const SECOND = 1000;
export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

/** Offsets are cached per 15-minute slot: every zone's transitions fall on such instants since 1970. */
const SLOT = 15 * MINUTE;

/** The calendar periods of charts and reports (contract query `Period`). */
export type CalendarPeriod = 'day' | 'month' | 'year';

/** Spec §9: a year's buckets YYYY-MM, a month's MM-DD, a day's HH:00. */
export const PERIOD_LABEL_FORMAT: Record<CalendarPeriod, string> = {
  year: 'YYYY-MM',
  month: 'MM-DD',
  day: 'HH:00',
};

export class PlantCalendar {
  readonly timeZone: string;
  private readonly intl: Intl.DateTimeFormat;
  private readonly offsets = new Map<number, number>();
  private readonly dayStarts = new Map<number, number>();

  constructor(timeZone: string) {
    this.intl = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    this.timeZone = timeZone;
  }

  /** Local time minus UTC at instant `ts`, ms. */
  offset(ts: number): number {
    const slot = Math.floor(ts / SLOT);
    const cached = this.offsets.get(slot);
    if (cached !== undefined) return cached;
    const at = slot * SLOT;
    const parts: Record<string, number> = {};
    for (const p of this.intl.formatToParts(new Date(at))) {
      if (p.type !== 'literal') parts[p.type] = Number(p.value);
    }
    const local = Date.UTC(
      parts.year ?? 1970,
      (parts.month ?? 1) - 1,
      parts.day ?? 1,
      parts.hour ?? 0,
      parts.minute ?? 0,
      parts.second ?? 0,
    );
    const offset = local - at;
    if (this.offsets.size > 100_000) this.offsets.clear();
    this.offsets.set(slot, offset);
    return offset;
  }

  /** Local day number (days since 1970-01-01 in the zone) of instant `ts`. */
  dayOf(ts: number): number {
    return Math.floor((ts + this.offset(ts)) / DAY);
  }

  /** First instant (ms) of local day `day`. */
  dayStart(day: number): number {
    const cached = this.dayStarts.get(day);
    if (cached !== undefined) return cached;
    const wall = day * DAY;
    let t = wall - this.offset(wall);
    t = wall - this.offset(t);
    if (!(this.dayOf(t) === day && this.dayOf(t - 1) < day)) {
      // Midnight falls in a DST gap (or an odd transition): search the first instant of the day.
      let lo = wall - 16 * HOUR;
      let hi = wall + 16 * HOUR;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (this.dayOf(mid) >= day) hi = mid;
        else lo = mid;
      }
      t = hi;
    }
    if (this.dayStarts.size > 100_000) this.dayStarts.clear();
    this.dayStarts.set(day, t);
    return t;
  }

  /** Local midnight at or before `ts`. */
  startOfDay(ts: number): number {
    return this.dayStart(this.dayOf(ts));
  }

  /** Local wall-clock fields of instant `ts` (month 1–12). */
  parts(ts: number): {
    year: number;
    month: number;
    day: number;
    hour: number;
    minute: number;
    second: number;
  } {
    const d = new Date(ts + this.offset(ts));
    return {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
    };
  }

  /**
   * `ts` printed on this calendar with a dayjs-style pattern of YYYY MM DD HH mm ss tokens.
   * @example new PlantCalendar('Asia/Shanghai').format(Date.UTC(2024, 2, 5, 6), 'MM-DD HH:mm') // '03-05 14:00'
   */
  format(ts: number, pattern: string): string {
    const p = this.parts(ts);
    const two = (n: number) => String(n).padStart(2, '0');
    const tokens: Record<string, string> = {
      YYYY: String(p.year),
      MM: two(p.month),
      DD: two(p.day),
      HH: two(p.hour),
      mm: two(p.minute),
      ss: two(p.second),
    };
    return pattern.replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => tokens[token] ?? token);
  }

  /**
   * The instant of a wall-clock time of this zone, given as ms as if it were UTC (a picker's
   * fields through Date.UTC, a schedule's day and HH:mm). The rule is Temporal's
   * `disambiguation: 'compatible'` (and RFC 5545's): a time a spring-forward gap skips is read
   * with the offset before the change, so it lands the gap's length later on the clock (02:30 on
   * Berlin's 23-hour day is 03:30 CEST); a time an autumn overlap repeats is the earlier of its
   * two instants (02:30 CEST on the 25-hour day).
   * The offsets in force a day either side of the wall time are the candidates: every zone changes
   * its offset at most once in two days, and a day covers the widest offset (±14 h) both ways.
   * @example new PlantCalendar('Europe/Berlin').fromWall(Date.UTC(2024, 2, 31, 2, 30)) // 2024-03-31T01:30Z
   */
  fromWall(wall: number): number {
    const before = wall - this.offset(wall - DAY);
    const after = wall - this.offset(wall + DAY);
    if (before === after) return before;
    const exists = [after, before].filter((at) => at + this.offset(at) === wall);
    return exists.length > 0 ? Math.min(...exists) : before;
  }

  /** Local day number of a `YYYY-MM-DD` date (the console's date pickers), or null when malformed. */
  static dayOfDate(date: string): number | null {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
    if (!m) return null;
    const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
    const back = new Date(ms);
    if (back.getUTCDate() !== Number(m[3]) || back.getUTCMonth() !== Number(m[2]) - 1) return null;
    return Math.floor(ms / DAY);
  }

  /** `YYYY-MM-DD` of the local day that holds `ts`. */
  dateOf(ts: number): string {
    return new Date(this.dayOf(ts) * DAY).toISOString().slice(0, 10);
  }

  /**
   * [start, end) of the local day, month or year that holds `ts`.
   * @example new PlantCalendar('Asia/Shanghai').periodRange('day', Date.UTC(2024, 5, 10, 3)) // 2024-06-09T16:00Z … 2024-06-10T16:00Z
   */
  periodRange(period: CalendarPeriod, ts: number): { start: number; end: number } {
    const day = this.dayOf(ts);
    if (period === 'day') return { start: this.dayStart(day), end: this.dayStart(day + 1) };
    const month = PlantCalendar.monthOfDay(day);
    const m0 = period === 'month' ? month : month - (month % 12);
    const m1 = period === 'month' ? m0 + 1 : m0 + 12;
    return {
      start: this.dayStart(PlantCalendar.firstDayOfMonth(m0)),
      end: this.dayStart(PlantCalendar.firstDayOfMonth(m1)),
    };
  }

  /**
   * The bucket starts of a period chart: a day by hours (from local midnight, so a DST day has
   * 23 or 25), a month by local days, a year by local months — the keys the server's buckets have.
   */
  periodBuckets(period: CalendarPeriod, ts: number): number[] {
    const { start, end } = this.periodRange(period, ts);
    const keys: number[] = [];
    if (period === 'day') {
      for (let t = start; t < end; t += HOUR) keys.push(t);
    } else if (period === 'month') {
      for (let d = this.dayOf(start); this.dayStart(d) < end; d++) keys.push(this.dayStart(d));
    } else {
      const m0 = PlantCalendar.monthOfDay(this.dayOf(start));
      for (let m = m0; m < m0 + 12; m++) keys.push(this.dayStart(PlantCalendar.firstDayOfMonth(m)));
    }
    return keys;
  }

  /**
   * A bucket's label in the period charts and reports (spec §9): a year's months YYYY-MM, a
   * month's days MM-DD, a day's hours HH:00, read on this calendar.
   */
  periodLabel(period: CalendarPeriod, ts: number): string {
    return this.format(ts, PERIOD_LABEL_FORMAT[period]);
  }

  /**
   * `ts` moved by `amount` whole units on this calendar: `ms` exactly; `day` and `month` keep the
   * time since local midnight, as the bucket grid counts it (hour buckets run from midnight even
   * on a 23- or 25-hour DST day), and a month's last days clamp (Mar 31 − 1 month = Feb 28/29).
   */
  shift(ts: number, amount: number, unit: 'ms' | 'day' | 'month'): number {
    if (unit === 'ms') return ts + amount;
    const day = this.dayOf(ts);
    const intoDay = ts - this.dayStart(day);
    let target = day + amount;
    if (unit === 'month') {
      const month = PlantCalendar.monthOfDay(day);
      const first = PlantCalendar.firstDayOfMonth(month);
      const nextFirst = PlantCalendar.firstDayOfMonth(month + amount + 1);
      const targetFirst = PlantCalendar.firstDayOfMonth(month + amount);
      target = Math.min(targetFirst + (day - first), nextFirst - 1);
    }
    const start = this.dayStart(target);
    return Math.min(start + intoDay, this.dayStart(target + 1) - 1);
  }

  /** Month index (year × 12 + month − 1) of a local day number. */
  static monthOfDay(day: number): number {
    const d = new Date(day * DAY);
    return d.getUTCFullYear() * 12 + d.getUTCMonth();
  }

  /** Local day number of the first day of a month index. */
  static firstDayOfMonth(month: number): number {
    return Math.floor(Date.UTC(Math.floor(month / 12), month % 12, 1) / DAY);
  }
}

/** Throws RangeError for a name Intl does not know. */
export function assertTimeZone(timeZone: string): void {
  new Intl.DateTimeFormat('en-US', { timeZone });
}

/** The process's time zone (TZ or the system's), else UTC. */
export function processTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
