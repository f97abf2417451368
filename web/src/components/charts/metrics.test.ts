import type { MetricConfig } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import {
  abilityLabel,
  allLineMetrics,
  chartMetrics,
  MAX_CHART_METRICS,
  type MetricSource,
} from './metrics.ts';
import { moveRow, settingRows, toPatch } from './rows.ts';

const config = (id: number, identifier: string, extra: Partial<MetricConfig> = {}): MetricConfig =>
  ({
    id,
    resourceType: 'thing',
    resourceId: 1,
    categoryId: null,
    metricIdentifier: identifier,
    metricName: identifier,
    name: identifier,
    enabled: true,
    unit: 'kW',
    aggregator: 'avg',
    function: '',
    color: '#112233',
    sort: id,
    ...extra,
  }) as MetricConfig;

const source = (identifier: string, name = identifier, dataType = 'number'): MetricSource => ({
  identifier,
  name,
  unit: '',
  dataType,
  aggregator: 'avg',
});

describe('chartMetrics (the metric-config limit)', () => {
  it('takes the enabled configs in their order, first 9', () => {
    const configs = Array.from({ length: 12 }, (_, i) => config(12 - i, `m${12 - i}`));
    configs.push(config(50, 'off', { enabled: false, sort: 0 }));
    const metrics = chartMetrics(configs, []);
    expect(metrics).toHaveLength(MAX_CHART_METRICS);
    expect(metrics.map((m) => m.identifier)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9']);
  });

  it('uses the config function (delta) as the aggregator when valid', () => {
    expect(chartMetrics([config(1, 'e', { function: 'delta' })], [])[0]!.aggregator).toBe('delta');
  });

  it('without configs, takes the first 9 numeric abilities minus the special ones', () => {
    const sources = [
      source('status', '运转状态', 'enum'),
      source('runtime', '运行时长'),
      source('starts', '启动次数'),
      source('stop', '停机时长'),
      source('label', '铭牌', 'string'),
      ...Array.from({ length: 11 }, (_, i) => source(`n${i}`)),
    ];
    const metrics = chartMetrics([], sources);
    expect(metrics.map((m) => m.identifier)).toEqual(['n0', 'n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8']);
    expect(metrics[0]!.color).toBe('#409EFF');
  });

  it('charts a counter ability as its consumption per bucket, not the ever-growing register', () => {
    const ep = { ...source('EP', '用电量'), aggregator: 'max' as const, cumulative: true };
    const [metric] = chartMetrics([], [ep]);
    expect(metric!.aggregator).toBe('delta');
    expect(metric!.cumulative).toBe(true);
    expect(settingRows([], [ep])[0]!.function).toBe('delta');
  });

  it('offers every line metric to pickers, configured first', () => {
    const all = allLineMetrics([config(1, 'b')], [source('a'), source('b'), source('runtime', '运行时长')]);
    expect(all.map((m) => m.identifier)).toEqual(['b', 'a']);
  });
});

describe('settings rows', () => {
  it('start with the first 9 line metrics enabled when there are no configs', () => {
    const rows = settingRows(
      [],
      Array.from({ length: 11 }, (_, i) => source(`n${i}`)),
    );
    expect(rows.filter((r) => r.enabled)).toHaveLength(9);
    expect(rows[0]!.color).toBe('#409EFF');
  });
  it('keep the configs order and append new abilities disabled', () => {
    const rows = settingRows(
      [config(2, 'b'), config(1, 'a', { enabled: false })],
      [source('c'), source('a')],
    );
    expect(rows.map((r) => [r.metricIdentifier, r.enabled])).toEqual([
      ['a', false],
      ['b', true],
      ['c', false],
    ]);
  });
  it('move and become the PATCH body in order', () => {
    const rows = moveRow(settingRows([config(1, 'a'), config(2, 'b')], []), 1, -1);
    const patch = toPatch({ resourceType: 'region', resourceId: 7 }, rows);
    expect(patch).toMatchObject({ resourceType: 'region', resourceId: 7, categoryId: null });
    expect(patch.configs.map((c) => c.metricIdentifier)).toEqual(['b', 'a']);
    expect(moveRow(['x'], 0, -1)).toEqual(['x']);
  });
});

describe('abilityLabel (one name per ability, picker and chart)', () => {
  it('is the name the series uses with its unit; the identifier only tells two same names apart', () => {
    expect(abilityLabel({ name: '有功功率', unit: 'kW' }, 'P', [{ name: '有功功率' }])).toBe('有功功率 (kW)');
    expect(abilityLabel({ name: '运行状态', unit: '' }, 'RUN', [])).toBe('运行状态');
    const twice = [{ name: '温度' }, { name: '温度' }];
    expect(abilityLabel({ name: '温度', unit: '℃' }, 'T1', twice)).toBe('温度 (℃, T1)');
  });
});
