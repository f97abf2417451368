import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  formatPeriodLabel,
  invertShift,
  periodBuckets,
  periodRange,
  shiftPoints,
  shiftTime,
  yoyShift,
} from './period.ts';

const at = (text: string) => dayjs(text).valueOf();

describe('period labels', () => {
  it('day HH:00, month MM-DD, year YYYY-MM', () => {
    const t = at('2024-03-05 14:00');
    expect(formatPeriodLabel(t, 'day')).toBe('14:00');
    expect(formatPeriodLabel(t, 'month')).toBe('03-05');
    expect(formatPeriodLabel(t, 'year')).toBe('2024-03');
  });
  it('takes 10-digit timestamps as seconds', () => {
    const t = at('2024-03-05 14:00');
    expect(formatPeriodLabel(Math.floor(t / 1000), 'day')).toBe('14:00');
  });
});

describe('periods', () => {
  it('cover the calendar day, month and year', () => {
    const t = at('2024-02-10 08:30');
    expect(periodRange('day', t)).toEqual({ start: at('2024-02-10'), end: at('2024-02-11') });
    expect(periodBuckets('day', t)).toHaveLength(24);
    expect(periodBuckets('month', t)).toHaveLength(29);
    expect(periodBuckets('year', t)).toHaveLength(12);
  });
});

describe('year-on-year', () => {
  const base = at('2024-03-05');
  it('yesterday is -24 h, last week -168 h', () => {
    expect(yoyShift('yesterday', 'day', base)).toEqual({ amount: -24, unit: 'hour' });
    expect(yoyShift('lastWeek', 'day', base)).toEqual({ amount: -168, unit: 'hour' });
    expect(shiftTime(base, yoyShift('yesterday', 'day', base)!)).toBe(base - 24 * 3600_000);
    expect(shiftTime(base, yoyShift('lastWeek', 'day', base)!)).toBe(base - 168 * 3600_000);
  });
  it('a chosen date shifts by whole periods', () => {
    expect(yoyShift('date', 'day', base, at('2024-03-01 17:00'))).toEqual({ amount: -4, unit: 'day' });
    expect(yoyShift('date', 'month', base, at('2023-03-20'))).toEqual({ amount: -12, unit: 'month' });
    expect(yoyShift('date', 'year', base, at('2022-07-01'))).toEqual({ amount: -2, unit: 'year' });
    expect(yoyShift('date', 'day', base, null)).toBeNull();
    expect(yoyShift('none', 'day', base)).toBeNull();
  });
  it('comparison points land on the base axis', () => {
    const shift = yoyShift('yesterday', 'day', base)!;
    const yesterday = [{ key: at('2024-03-04 10:00'), value: 1 }];
    expect(shiftPoints(yesterday, invertShift(shift))[0]!.key).toBe(at('2024-03-05 10:00'));
    const lastMonth = [{ key: at('2024-02-10'), value: 1 }];
    expect(shiftPoints(lastMonth, { amount: 1, unit: 'month' })[0]!.key).toBe(at('2024-03-10'));
  });
});
