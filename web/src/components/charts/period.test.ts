import { PlantCalendar } from '@kilowatch/contract';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { formatPeriodLabel, periodBuckets, periodRange, yoyCompare } from './period.ts';

// The browser in New York, the plant in Shanghai (13 h apart in winter): every period, label and
// comparison must be the plant's. Node follows a TZ set at run time; this file runs in its own
// process (vitest's forks pool).
process.env.TZ = 'America/New_York';
const plant = new PlantCalendar('Asia/Shanghai');
/** `YYYY-MM-DD[ HH:mm]` in the plant's zone (UTC+8). */
const at = (text: string) =>
  Date.parse(`${text.length === 10 ? `${text}T00:00` : text.replace(' ', 'T')}:00+08:00`);

describe('the browser and the plant', () => {
  it('are in different zones here', () => {
    expect(new Date(Date.UTC(2024, 0, 1)).getTimezoneOffset()).toBe(300);
    expect(dayjs(at('2024-03-05 08:00')).format('MM-DD')).toBe('03-04');
  });
});

describe('period labels', () => {
  it('day HH:00, month MM-DD, year YYYY-MM', () => {
    const t = at('2024-03-05 14:00');
    expect(formatPeriodLabel(t, 'day', plant)).toBe('14:00');
    expect(formatPeriodLabel(t, 'month', plant)).toBe('03-05');
    expect(formatPeriodLabel(t, 'year', plant)).toBe('2024-03');
    // 08:00 in Shanghai is the evening before in New York: the plant's date wins.
    expect(formatPeriodLabel(at('2024-03-05 08:00'), 'month', plant)).toBe('03-05');
  });
  it('takes 10-digit timestamps as seconds', () => {
    const t = at('2024-03-05 14:00');
    expect(formatPeriodLabel(Math.floor(t / 1000), 'day', plant)).toBe('14:00');
  });
});

describe('periods', () => {
  it('cover the plant’s calendar day, month and year', () => {
    const t = at('2024-02-10 08:30');
    expect(periodRange('day', t, plant)).toEqual({ start: at('2024-02-10'), end: at('2024-02-11') });
    expect(periodBuckets('day', t, plant)).toHaveLength(24);
    expect(periodBuckets('month', t, plant)).toHaveLength(29);
    expect(periodBuckets('year', t, plant)).toHaveLength(12);
    expect(periodBuckets('day', t, plant)[0]).toBe(at('2024-02-10'));
    expect(periodBuckets('year', t, plant)[1]).toBe(at('2024-02-01'));
  });
});

describe('year-on-year', () => {
  const base = at('2024-03-05');
  it('yesterday is -24 h, last week -168 h (the server shifts; query/ranges.test.ts)', () => {
    expect(yoyCompare('yesterday', 'day', base, null, plant)).toEqual({
      shift: { amount: -24, unit: 'hour' },
    });
    expect(yoyCompare('lastWeek', 'day', base, null, plant)).toEqual({
      shift: { amount: -168, unit: 'hour' },
    });
  });
  it('a chosen date names the plant’s period that holds it', () => {
    expect(yoyCompare('date', 'day', base, at('2024-03-01 17:00'), plant)).toEqual({
      startTime: at('2024-03-01'),
    });
    expect(yoyCompare('date', 'month', base, at('2023-03-20'), plant)).toEqual({
      startTime: at('2023-03-01'),
    });
    expect(yoyCompare('date', 'year', base, at('2022-07-01'), plant)).toEqual({
      startTime: at('2022-01-01'),
    });
    expect(yoyCompare('date', 'day', base, null, plant)).toBeNull();
    expect(yoyCompare('date', 'day', base, at('2024-03-05 23:00'), plant)).toBeNull();
    expect(yoyCompare('none', 'day', base, null, plant)).toBeNull();
  });
});
