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

export class PlantCalendar {
  readonly timeZone: string;
  private readonly format: Intl.DateTimeFormat;
  private readonly offsets = new Map<number, number>();
  private readonly dayStarts = new Map<number, number>();

  constructor(timeZone: string) {
    this.format = new Intl.DateTimeFormat('en-US', {
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
    for (const p of this.format.formatToParts(new Date(at))) {
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
