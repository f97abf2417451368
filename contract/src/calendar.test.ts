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
});
