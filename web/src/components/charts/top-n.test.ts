import { describe, expect, it } from 'vitest';
import type { ChartSeries } from './series.ts';
import { limitSeries, MAX_SERIES } from './top-n.ts';

const meter = (i: number, value: number, extra: Partial<ChartSeries> = {}): ChartSeries => ({
  name: `电表${i}`,
  metric: '功率',
  aggregator: 'sum',
  unit: 'kW',
  points: [
    { key: 0, value, complete: true },
    { key: 60_000, value: value * 2, complete: true },
  ],
  ...extra,
});
const othersName = (n: number) => `其他 (${n})`;

describe('limitSeries', () => {
  it('passes up to ten series through unchanged', () => {
    const list = Array.from({ length: MAX_SERIES }, (_, i) => meter(i, i));
    expect(limitSeries(list, { othersName })).toEqual(list);
  });

  it('keeps the nine largest of 129 meters and sums the rest into "others"', () => {
    const list = Array.from({ length: 129 }, (_, i) => meter(i + 1, i + 1));
    const out = limitSeries(list, { othersName });
    expect(out).toHaveLength(MAX_SERIES);
    expect(out.slice(0, 9).map((s) => s.name)).toEqual(Array.from({ length: 9 }, (_, i) => `电表${121 + i}`));
    const others = out[9]!;
    expect(others.name).toBe('其他 (120)');
    // 1 + 2 + … + 120 at the first bucket, twice that at the second: the total still adds up.
    expect(others.points).toEqual([
      { key: 0, value: 7260, complete: true },
      { key: 60_000, value: 14520, complete: true },
    ]);
  });

  it('averages the rest of a non-additive metric and names who lacked data', () => {
    const list = Array.from({ length: 12 }, (_, i) => meter(i + 1, 10 * (i + 1), { aggregator: 'avg' }));
    list[0] = {
      ...list[0]!,
      points: [{ key: 0, value: null, complete: false }, list[0]!.points[1]!],
    };
    const out = limitSeries(list, { othersName });
    const others = out[out.length - 1]!;
    expect(others.name).toBe('其他 (3)');
    // 电表1 (null, then 20), 电表2 (20, 40), 电表3 (30, 60).
    expect(others.points[0]).toEqual({ key: 0, value: 25, complete: false, missing: ['电表1'] });
    expect(others.points[1]).toEqual({ key: 60_000, value: 40, complete: true });
  });

  it('always keeps the total line and gives each metric its own "others"', () => {
    const total = meter(0, 1000, { name: '合计', total: true });
    const power = Array.from({ length: 8 }, (_, i) => meter(i + 1, i + 1));
    const current = Array.from({ length: 8 }, (_, i) =>
      meter(i + 1, i + 1, { name: `电流 · 电表${i + 1}`, metric: '电流', aggregator: 'avg', unit: 'A' }),
    );
    const out = limitSeries([total, ...power, ...current], { othersName });
    expect(out[0]).toBe(total);
    expect(out.filter((s) => s.name.includes('其他')).map((s) => s.name)).toEqual([
      '功率 · 其他 (5)',
      '电流 · 其他 (5)',
    ]);
    expect(out.length).toBeLessThanOrEqual(MAX_SERIES + 1);
  });
});
