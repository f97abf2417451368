import { PlantCalendar, type StatisticsResult } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { chunks, compareOf, DEFAULT_RANGE, format2, hasData, presetTime, topRows } from './statistics.ts';

const berlin = new PlantCalendar('Europe/Berlin');
const NOW = Date.parse('2026-11-20T10:00:00Z');

const result = (
  series: { name: string; values: (number | null)[]; total: number | null }[],
): StatisticsResult => ({
  metricIdentifier: 'EP',
  metricName: '有功电能',
  unit: 'kWh',
  aggregator: 'delta',
  timeZone: 'Europe/Berlin',
  startTime: 0,
  endTime: 1,
  groupByTime: 'hour',
  keys: [0, 1],
  labels: ['00:00', '01:00'],
  series: series.map((s, i) => ({
    ...s,
    key: `thing:${i}`,
    resourceType: 'thing',
    resourceId: i,
    identifier: '',
    hasMetric: true,
  })),
  total: { values: [null, null], total: series.reduce((a, s) => a + (s.total ?? 0), 0) },
});

describe('statistics screen arithmetic', () => {
  it('defaults to the current period (range index 2) and steps back on the plant calendar', () => {
    expect(DEFAULT_RANGE).toBe('current');
    expect(presetTime('current', 'day', NOW, berlin, null)).toBe(NOW);
    expect(berlin.dateOf(presetTime('last', 'day', NOW, berlin, null))).toBe('2026-11-19');
    expect(berlin.dateOf(presetTime('beforeLast', 'month', NOW, berlin, null))).toBe('2026-09-01');
    expect(berlin.dateOf(presetTime('last', 'year', NOW, berlin, null))).toBe('2025-01-01');
    expect(presetTime('date', 'day', NOW, berlin, 42)).toBe(42);
  });

  it('asks the server for comparisons', () => {
    expect(compareOf('none', 'day')).toBeUndefined();
    expect(compareOf('yearOnYear', 'month')).toEqual({ shift: { amount: -1, unit: 'year' } });
    expect(compareOf('previous', 'month')).toEqual({ shift: { amount: -1, unit: 'month' } });
  });

  it('shows 2 decimals, ranks the top list with shares, and chunks it by 10', () => {
    expect(format2(1234.5)).toBe('1,234.50');
    expect(format2(null)).toBe('—');
    const r = result([
      { name: 'a', values: [1, null], total: 1 },
      { name: 'b', values: [3, null], total: 3 },
      { name: 'c', values: [null, null], total: null },
    ]);
    expect(topRows(r).map((row) => [row.rank, row.name, row.share])).toEqual([
      [1, 'b', 75],
      [2, 'a', 25],
      [3, 'c', null],
    ]);
    expect(chunks(Array.from({ length: 23 }, (_, i) => i)).map((c) => c.length)).toEqual([10, 10, 3]);
    expect(hasData(r)).toBe(true);
    expect(hasData(result([{ name: 'a', values: [null, null], total: null }]))).toBe(false);
  });
});
