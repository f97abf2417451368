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
});
