import type { DataPoint } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import {
  buildSeries,
  chunk,
  formatReading,
  formatValue,
  formatWithUnit,
  groupPoints,
  isSpecialMetric,
  lineMetrics,
  seriesTable,
  splitByCompleteness,
  summarize,
  totalLine,
} from './series.ts';

const p = (key: number, value: number | null, group = 'A', complete = true): DataPoint => ({
  key,
  value,
  group,
  complete,
});

describe('formatValue', () => {
  it('shows numbers with 2 decimals', () => {
    expect(formatValue(3.14659)).toBe('3.15');
    expect(formatValue(2)).toBe('2.00');
    expect(formatValue(-0.005)).toBe('-0.01');
    expect(formatValue(1234567.891)).toBe('1234567.89');
  });
  it('keeps strings and shows empty values as -', () => {
    expect(formatValue('运行')).toBe('运行');
    expect(formatValue(null)).toBe('-');
    expect(formatValue(undefined)).toBe('-');
    expect(formatValue(Number.NaN)).toBe('-');
  });
  it('adds the unit only to a value', () => {
    expect(formatWithUnit(12.3, 'kW')).toBe('12.30 kW');
    expect(formatWithUnit(null, 'kW')).toBe('-');
  });
});

describe('special metrics', () => {
  it('are 运转状态, 运行时长, 启动次数 and 停机时长', () => {
    for (const name of ['运转状态', '运行时长', '启动次数', ' 停机时长 '])
      expect(isSpecialMetric(name)).toBe(true);
    expect(isSpecialMetric('有功功率')).toBe(false);
  });
  it('are kept out of line series', () => {
    const metrics = [
      { name: '有功功率' },
      { name: '运行时长' },
      { name: '启动次数' },
      { name: '停机时长' },
      { name: '运转状态' },
    ];
    expect(lineMetrics(metrics)).toEqual([{ name: '有功功率' }]);
    expect(buildSeries([p(1, 5)], { name: '运行时长', totalName: '合计' })).toEqual([]);
  });
});

describe('groupPoints', () => {
  it('groups by series name, sorts by time and turns 10-digit seconds into ms', () => {
    const groups = groupPoints([
      p(1_700_000_060, 2, 'B'),
      p(1_700_000_000, 1, 'A'),
      p(1_700_000_000, 3, 'B'),
    ]);
    expect([...groups.keys()]).toEqual(['B', 'A']);
    expect(groups.get('B')!.map((x) => x.key)).toEqual([1_700_000_000_000, 1_700_000_060_000]);
  });
});

describe('buildSeries', () => {
  it('names a single series after the metric', () => {
    const series = buildSeries([p(1000, 1, 'Meter A')], {
      name: '功率',
      unit: 'kW',
      color: '#123456',
      totalName: '合计',
    });
    expect(series).toHaveLength(1);
    expect(series[0]).toMatchObject({ name: '功率', unit: 'kW', color: '#123456' });
  });

  it('adds a total line (sum per key) for the SUM aggregator', () => {
    const points = [p(1000, 1, 'A'), p(2000, 2, 'A'), p(1000, 10, 'B'), p(2000, 20, 'B')];
    const series = buildSeries(points, { name: '电量', aggregator: 'sum', totalName: '合计' });
    expect(series.map((s) => s.name)).toEqual(['合计', 'A', 'B']);
    expect(series[0]!.total).toBe(true);
    expect(series[0]!.points.map((x) => x.value)).toEqual([11, 22]);
  });

  it('adds no total line for averages', () => {
    const points = [p(1000, 1, 'A'), p(1000, 10, 'B')];
    expect(
      buildSeries(points, { name: '温度', aggregator: 'avg', totalName: '合计' }).map((s) => s.name),
    ).toEqual(['A', 'B']);
  });
});

describe('totalLine', () => {
  it('marks keys incomplete when a series lacks them or is incomplete there', () => {
    const total = totalLine([
      [
        { key: 1, value: 1, complete: true },
        { key: 2, value: 2, complete: false },
        { key: 3, value: 3, complete: true },
      ],
      [
        { key: 1, value: 10, complete: true },
        { key: 2, value: 20, complete: true },
      ],
    ]);
    expect(total).toEqual([
      { key: 1, value: 11, complete: true },
      { key: 2, value: 22, complete: false },
      { key: 3, value: 3, complete: false },
    ]);
  });
  it('is null only where every series is null', () => {
    expect(
      totalLine([[{ key: 1, value: null, complete: false }], [{ key: 1, value: null, complete: false }]])[0]!
        .value,
    ).toBeNull();
  });
});

describe('splitByCompleteness (incomplete buckets marked)', () => {
  const s = (complete: boolean[], values?: (number | null)[]) =>
    complete.map((c, i) => ({ key: i, value: values ? values[i]! : i * 10, complete: c }));

  it('draws everything solid when complete', () => {
    const out = splitByCompleteness(s([true, true, true]));
    expect(out.solid).toEqual([
      [0, 0],
      [1, 10],
      [2, 20],
    ]);
    expect(out.dashed).toEqual([]);
    expect(out.incomplete).toEqual([]);
  });

  it('draws segments touching an incomplete bucket dashed, without overlap', () => {
    const out = splitByCompleteness(s([true, true, false, true, true]));
    expect(out.solid).toEqual([
      [0, 0],
      [1, 10],
      [3, null],
      [3, 30],
      [4, 40],
    ]);
    expect(out.dashed).toEqual([
      [1, 10],
      [2, 20],
      [3, 30],
    ]);
    expect(out.incomplete).toEqual([[2, 20]]);
  });

  it('breaks both lines at gaps and keeps lone buckets', () => {
    const out = splitByCompleteness(s([true, true, true, false], [1, null, 3, null]));
    expect(out.solid).toEqual([
      [0, 1],
      [2, null],
      [2, 3],
    ]);
    expect(out.dashed).toEqual([]);
  });
});

describe('summarize', () => {
  const pts = [1, 2, 3].map((v, i) => ({ key: i, value: v, complete: true }));
  it('sums additive aggregators and averages the others', () => {
    expect(summarize(pts, 'sum')).toBe(6);
    expect(summarize(pts, 'delta')).toBe(6);
    expect(summarize(pts, 'avg')).toBe(2);
    expect(summarize(pts, 'max')).toBe(3);
    expect(summarize(pts, 'min')).toBe(1);
    expect(summarize(pts, 'last')).toBe(3);
    expect(summarize([], 'sum')).toBeNull();
  });
  it('handles 100k points', () => {
    const many = Array.from({ length: 100_000 }, (_, i) => ({ key: i, value: i, complete: true }));
    expect(summarize(many, 'max')).toBe(99_999);
  });
});

describe('chunk and seriesTable', () => {
  it('groups rows in chunks of 10', () => {
    const rows = Array.from({ length: 25 }, (_, i) => i);
    expect(chunk(rows, 10).map((c) => c.length)).toEqual([10, 10, 5]);
  });
  it('puts series side by side by time', () => {
    const rows = seriesTable([
      { name: 'A', points: [{ key: 2, value: 1, complete: true }] },
      {
        name: 'B',
        points: [
          { key: 1, value: 5, complete: false },
          { key: 2, value: 6, complete: true },
        ],
      },
    ]);
    expect(rows.map((r) => r.key)).toEqual([1, 2]);
    expect(rows[0]!.values.A).toBeUndefined();
    expect(rows[1]!.values.A?.value).toBe(1);
  });
});

describe('formatReading', () => {
  it('writes counts whole with thousands separators and measures with 2 decimals', () => {
    expect(formatReading(61918, '次')).toBe('61,918');
    expect(formatReading(12.5, 'kW')).toBe('12.50');
    expect(formatReading(3.5, '次')).toBe('3.50');
    expect(formatReading(null, '次')).toBe('-');
  });
});
