import { describe, expect, it } from 'vitest';
import { DAY, HOUR, PlantCalendar } from './calendar.ts';

describe('plant calendar', () => {
  it('Asia/Shanghai days start at 16:00 UTC the day before', () => {
    const cal = new PlantCalendar('Asia/Shanghai');
    const ts = Date.UTC(2024, 5, 10, 3, 0); // 11:00 local
    expect(cal.startOfDay(ts)).toBe(Date.UTC(2024, 5, 9, 16, 0));
    expect(cal.startOfDay(Date.UTC(2024, 5, 9, 16, 0))).toBe(Date.UTC(2024, 5, 9, 16, 0));
    expect(cal.startOfDay(Date.UTC(2024, 5, 9, 15, 59, 59, 999))).toBe(Date.UTC(2024, 5, 8, 16, 0));
  });

  it('DST days are 23 and 25 hours long (America/New_York)', () => {
    const cal = new PlantCalendar('America/New_York');
    const spring = cal.dayOf(Date.UTC(2024, 2, 10, 12));
    expect(cal.dayStart(spring + 1) - cal.dayStart(spring)).toBe(23 * HOUR);
    const fall = cal.dayOf(Date.UTC(2024, 10, 3, 12));
    expect(cal.dayStart(fall + 1) - cal.dayStart(fall)).toBe(25 * HOUR);
    expect(cal.dayStart(spring)).toBe(Date.UTC(2024, 2, 10, 5));
  });

  it('finds the start of a day whose midnight falls in a DST gap', () => {
    // America/Santiago: clocks jumped from 2022-09-11 00:00 to 01:00.
    const cal = new PlantCalendar('America/Santiago');
    const d = cal.dayOf(Date.UTC(2022, 8, 11, 15));
    expect(cal.dayStart(d)).toBe(Date.UTC(2022, 8, 11, 4));
  });

  it('Asia/Kolkata midnights are not on whole UTC hours', () => {
    const cal = new PlantCalendar('Asia/Kolkata');
    expect(cal.startOfDay(Date.UTC(2024, 0, 2, 12)) % HOUR).toBe(30 * 60_000);
  });

  it('month indexes and their first days', () => {
    const d = Math.floor(Date.UTC(2024, 1, 29) / DAY);
    expect(PlantCalendar.monthOfDay(d)).toBe(2024 * 12 + 1);
    expect(PlantCalendar.firstDayOfMonth(2024 * 12 + 1)).toBe(Math.floor(Date.UTC(2024, 1, 1) / DAY));
    expect(PlantCalendar.firstDayOfMonth(2024 * 12 + 12)).toBe(Math.floor(Date.UTC(2025, 0, 1) / DAY));
  });

  it('rejects unknown zones', () => {
    expect(() => new PlantCalendar('Mars/Olympus')).toThrow(RangeError);
  });
  it('periods, their buckets and labels are the plant’s, whatever the process zone', () => {
    const cal = new PlantCalendar('Asia/Shanghai');
    const ts = Date.UTC(2024, 1, 10, 20, 30); // 2024-02-11 04:30 local
    expect(cal.periodRange('day', ts)).toEqual({
      start: Date.UTC(2024, 1, 10, 16),
      end: Date.UTC(2024, 1, 11, 16),
    });
    expect(cal.periodRange('year', ts).start).toBe(Date.UTC(2023, 11, 31, 16));
    expect(cal.periodBuckets('day', ts)).toHaveLength(24);
    expect(cal.periodBuckets('month', ts)).toHaveLength(29);
    expect(cal.periodBuckets('year', ts)).toHaveLength(12);
    expect(cal.periodLabel('day', ts)).toBe('04:00');
    expect(cal.periodLabel('month', ts)).toBe('02-11');
    expect(cal.periodLabel('year', ts)).toBe('2024-02');
    expect(cal.dateOf(ts)).toBe('2024-02-11');
    expect(cal.dayStart(PlantCalendar.dayOfDate('2024-02-11')!)).toBe(Date.UTC(2024, 1, 10, 16));
    expect(PlantCalendar.dayOfDate('2024-02-30')).toBeNull();
    expect(PlantCalendar.dayOfDate('yesterday')).toBeNull();
  });

  it('a DST day has 23 hour buckets (America/New_York)', () => {
    const cal = new PlantCalendar('America/New_York');
    const spring = cal.periodBuckets('day', Date.UTC(2024, 2, 10, 12));
    expect(spring).toHaveLength(23);
    expect(cal.periodLabel('day', spring[2]!)).toBe('03:00');
  });

  it('shifts by days and months keep the time since midnight; month ends clamp', () => {
    const cal = new PlantCalendar('Asia/Shanghai');
    const at = Date.UTC(2024, 2, 31, 2); // 2024-03-31 10:00 local
    expect(cal.shift(at, -1, 'month')).toBe(Date.UTC(2024, 1, 29, 2));
    expect(cal.shift(at, -12, 'month')).toBe(Date.UTC(2023, 2, 31, 2));
    expect(cal.shift(at, -4, 'day')).toBe(Date.UTC(2024, 2, 27, 2));
    expect(cal.shift(at, -HOUR, 'ms')).toBe(at - HOUR);
  });
  it('reads a wall-clock time of the zone as an instant, across DST', () => {
    const sh = new PlantCalendar('Asia/Shanghai');
    expect(sh.fromWall(Date.UTC(2024, 2, 5, 8, 30))).toBe(Date.UTC(2024, 2, 5, 0, 30));
    const ny = new PlantCalendar('America/New_York');
    expect(ny.fromWall(Date.UTC(2024, 0, 10, 12))).toBe(Date.UTC(2024, 0, 10, 17));
    // 02:30 does not exist on 2024-03-10: an hour later. 01:30 on 2024-11-03 happens twice: the first.
    expect(ny.fromWall(Date.UTC(2024, 2, 10, 2, 30))).toBe(Date.UTC(2024, 2, 10, 7, 30));
    expect(ny.fromWall(Date.UTC(2024, 10, 3, 1, 30))).toBe(Date.UTC(2024, 10, 3, 5, 30));
    expect(sh.format(Date.UTC(2024, 2, 5, 6), 'YYYY-MM-DD HH:mm:ss')).toBe('2024-03-05 14:00:00');
  });

  // The rule of Temporal's `disambiguation: 'compatible'`: a wall time a spring-forward gap skips
  // is read with the offset before the change (so it lands the gap's length later on the clock);
  // one an autumn overlap repeats is the earlier of its two instants.
  const wall = (zone: string, y: number, m: number, d: number, h: number, min: number) =>
    new PlantCalendar(zone).fromWall(Date.UTC(y, m - 1, d, h, min));
  const utc = (iso: string) => Date.parse(iso);

  it('reads a wall time a spring-forward gap skips as the same time after the clocks moved on', () => {
    // Berlin, 2024-03-31: 02:00 CET → 03:00 CEST. 02:30 is 03:30 CEST.
    expect(wall('Europe/Berlin', 2024, 3, 31, 2, 30)).toBe(utc('2024-03-31T01:30:00Z'));
    expect(wall('Europe/Berlin', 2024, 3, 31, 2, 0)).toBe(utc('2024-03-31T01:00:00Z'));
    expect(wall('Europe/Berlin', 2024, 3, 31, 1, 59)).toBe(utc('2024-03-31T00:59:00Z'));
    expect(wall('Europe/Berlin', 2024, 3, 31, 3, 0)).toBe(utc('2024-03-31T01:00:00Z'));
    // New York, 2024-03-10: 02:00 EST → 03:00 EDT.
    expect(wall('America/New_York', 2024, 3, 10, 2, 30)).toBe(utc('2024-03-10T07:30:00Z'));
    expect(wall('America/New_York', 2024, 3, 10, 2, 0)).toBe(utc('2024-03-10T07:00:00Z'));
    // Auckland, 2024-09-29: 02:00 NZST (+12) → 03:00 NZDT (+13).
    expect(wall('Pacific/Auckland', 2024, 9, 29, 2, 30)).toBe(utc('2024-09-28T14:30:00Z'));
    // Lord Howe's gap is 30 minutes (02:00 +10:30 → 02:30 +11): 02:15 reads as 02:45.
    expect(wall('Australia/Lord_Howe', 2024, 10, 6, 2, 15)).toBe(utc('2024-10-05T15:45:00Z'));
  });

  it('reads a wall time an autumn overlap repeats as the first of the two', () => {
    // Berlin, 2024-10-27: 03:00 CEST → 02:00 CET. 02:30 CEST comes first.
    expect(wall('Europe/Berlin', 2024, 10, 27, 2, 30)).toBe(utc('2024-10-27T00:30:00Z'));
    expect(wall('Europe/Berlin', 2024, 10, 27, 2, 0)).toBe(utc('2024-10-27T00:00:00Z'));
    expect(wall('Europe/Berlin', 2024, 10, 27, 3, 0)).toBe(utc('2024-10-27T02:00:00Z'));
    // New York, 2024-11-03: 02:00 EDT → 01:00 EST. 01:30 EDT comes first.
    expect(wall('America/New_York', 2024, 11, 3, 1, 30)).toBe(utc('2024-11-03T05:30:00Z'));
    expect(wall('America/New_York', 2024, 11, 3, 1, 0)).toBe(utc('2024-11-03T05:00:00Z'));
    expect(wall('America/New_York', 2024, 11, 3, 2, 0)).toBe(utc('2024-11-03T07:00:00Z'));
    // Auckland, 2024-04-07: 03:00 NZDT → 02:00 NZST.
    expect(wall('Pacific/Auckland', 2024, 4, 7, 2, 30)).toBe(utc('2024-04-06T13:30:00Z'));
    // Lord Howe, 2024-04-07: 02:00 +11 → 01:30 +10:30.
    expect(wall('Australia/Lord_Howe', 2024, 4, 7, 1, 45)).toBe(utc('2024-04-06T14:45:00Z'));
  });

  it('reads every wall time of a year back as itself, except the skipped hours (an hour on)', () => {
    const moved = (zone: string) => {
      const cal = new PlantCalendar(zone);
      const found: string[] = [];
      for (let w = Date.UTC(2024, 0, 1); w < Date.UTC(2025, 0, 1); w += 15 * 60_000) {
        const p = cal.parts(cal.fromWall(w));
        const back = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
        if (back !== w) found.push(`${new Date(w).toISOString().slice(0, 16)} +${(back - w) / 60_000} min`);
      }
      return found;
    };
    const gap = (date: string) =>
      ['02:00', '02:15', '02:30', '02:45'].map((time) => `${date}T${time} +60 min`);
    expect(moved('Europe/Berlin')).toEqual(gap('2024-03-31'));
    expect(moved('America/New_York')).toEqual(gap('2024-03-10'));
  });
});
