import { describe, expect, it } from 'vitest';
import { findFloods, periodCounts } from './health.ts';

const MIN = 60_000;

describe('alarm rate and floods', () => {
  it('sees a flood across the boundary of two fixed 10-minute periods', () => {
    // 6 alarms in the last 2 minutes of one period, 6 in the first 2 of the next.
    const times = [
      ...Array.from({ length: 6 }, (_, i) => 8 * MIN + i * 20_000),
      ...Array.from({ length: 6 }, (_, i) => 10 * MIN + i * 20_000),
    ];
    expect(periodCounts(times, 0, 20 * MIN)).toEqual([6, 6]);
    expect(findFloods(times)).toEqual([{ start: 8 * MIN, end: 10 * MIN + 100_000, count: 12 }]);
  });

  it('needs more than 10 within 10 minutes, and splits floods apart in time', () => {
    const ten = Array.from({ length: 10 }, (_, i) => i * MIN);
    expect(findFloods(ten)).toEqual([]);
    const eleven = Array.from({ length: 11 }, (_, i) => i * 50_000);
    const later = eleven.map((t) => t + 60 * MIN);
    expect(findFloods([...eleven, ...later])).toEqual([
      { start: 0, end: 500_000, count: 11 },
      { start: 60 * MIN, end: 60 * MIN + 500_000, count: 11 },
    ]);
  });

  it('keeps a short last period and leaves out times outside the range', () => {
    expect(periodCounts([0, 9 * MIN, 10 * MIN, 14 * MIN, 15 * MIN, -1], 0, 15 * MIN)).toEqual([2, 2]);
  });
});
