import { PlantCalendar } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { dateOfDay, nextPeriod, periodLabel, periodStart, periodStarts } from './periods.ts';

const day = (date: string) => PlantCalendar.dayOfDate(date) as number;

describe('EnPI periods on the plant calendar', () => {
  it('starts weeks on Mondays and months on their first day', () => {
    expect(dateOfDay(periodStart('week', day('2026-11-22')))).toBe('2026-11-16'); // a Sunday
    expect(dateOfDay(periodStart('week', day('2026-11-23')))).toBe('2026-11-23'); // a Monday
    expect(dateOfDay(periodStart('week', day('1970-01-01')))).toBe('1969-12-29');
    expect(dateOfDay(periodStart('month', day('2024-02-29')))).toBe('2024-02-01');
    expect(dateOfDay(nextPeriod('month', day('2024-12-01')))).toBe('2025-01-01');
    expect(periodLabel('month', day('2025-03-01'))).toBe('2025-03');
    expect(periodLabel('week', day('2025-03-03'))).toBe('2025-03-03');
  });

  it('covers a range with whole periods', () => {
    expect(periodStarts('month', day('2025-01-15'), day('2025-03-01')).map(dateOfDay)).toEqual([
      '2025-01-01',
      '2025-02-01',
      '2025-03-01',
    ]);
    expect(periodStarts('day', day('2025-01-30'), day('2025-02-01')).map(dateOfDay)).toEqual([
      '2025-01-30',
      '2025-01-31',
      '2025-02-01',
    ]);
  });
});
