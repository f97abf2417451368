import type { QueryResult } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { componentSeries, type MetricAnswer, metricTotals } from './component-series.ts';

const answer = (values: (number | null)[], compare?: (number | null)[]): QueryResult => ({
  result: values.map((value, i) => ({ key: i * 3_600_000, value, group: '电表1', complete: true })),
  seq: null,
  unit: 'kW',
  resolution: 'hour',
  ...(compare
    ? {
        compare: {
          startTime: 0,
          endTime: 1,
          shift: { amount: -86_400_000, unit: 'ms' as const },
          result: compare.map((value, i) => ({
            key: i * 3_600_000,
            at: i,
            value,
            group: '电表1',
            complete: true,
          })),
        },
      }
    : {}),
});

const answers: MetricAnswer[] = [
  {
    metric: { identifier: 'P', name: '有功功率', statistics: 'avg' },
    answer: answer([10, 20, null], [5, 5, 5]),
  },
  { metric: { identifier: 'EP', name: '电能', statistics: 'delta', unit: 'kWh' }, answer: answer([1, 2, 3]) },
  { metric: { identifier: 'Q', name: '', statistics: 'avg' }, answer: undefined },
];

describe('componentSeries', () => {
  it('draws each metric, then its comparison on the same axis', () => {
    const series = componentSeries('line', answers, { total: '合计', compare: '昨日' });
    expect(series.map((s) => [s.name, s.kind, s.compare ?? false, s.unit])).toEqual([
      ['有功功率', 'line', false, 'kW'],
      ['有功功率 (昨日)', 'line', true, 'kW'],
      ['电能', 'line', false, 'kWh'],
    ]);
    expect(series[1]?.points.map((p) => p.value)).toEqual([5, 5, 5]);
  });

  it('stacks accumulated bars, comparisons in their own stack', () => {
    const series = componentSeries('bar-accumulation', answers, { total: '合计', compare: '上周' });
    expect(series.map((s) => [s.kind, s.stack])).toEqual([
      ['bar', 'report'],
      ['bar', 'compare'],
      ['bar', 'report'],
    ]);
    expect(componentSeries('bar', answers, { total: '合计', compare: '上周' })[0]).not.toHaveProperty(
      'stack',
    );
  });
});

describe('metricTotals', () => {
  it('averages an average, adds a consumption, and gives the change against the comparison', () => {
    expect(metricTotals(answers)).toEqual([
      { name: '有功功率', unit: 'kW', value: 15, compare: 5, change: 200 },
      { name: '电能', unit: 'kWh', value: 6, compare: null, change: null },
      { name: 'Q', unit: '', value: null, compare: null, change: null },
    ]);
  });
});
