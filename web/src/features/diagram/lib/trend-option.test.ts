import type { AlarmSpan } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { trendOption } from './trend-option.ts';

const Q = 15 * 60_000;
const T0 = Date.UTC(2026, 10, 27, 8);
const words = {
  severity: { critical: '紧急', major: '重要', minor: '次要', warning: '提示' },
  time: (ms: number) => new Date(ms).toISOString().slice(11, 16),
  active: '未恢复',
};
const alarm: AlarmSpan = {
  id: 41,
  thingId: 3,
  thingName: '1#出线',
  ruleName: '<img src=x onerror=alert(1)>',
  ability: 'P',
  severity: 'critical',
  message: '',
  value: '120',
  alarmAt: T0 + 2 * Q + 60_000,
  returnedAt: null,
  active: true,
};
const input = (alarms: AlarmSpan[]) => ({
  lines: [{ name: '损耗率', points: [0, 1, 2, 3].map((i) => ({ key: T0 + i * Q, value: 1.5 + i })) }],
  threshold: 5,
  thresholdLabel: '阈值',
  time: (k: number) => new Date(k).toISOString().slice(11, 16),
  alarms,
  marks: { series: '告警', words },
  now: T0 + 3 * Q + 120_000,
});
type Series = { name?: string; markLine?: { data: { alarmId?: number; xAxis?: string }[] } };

describe('the diagram detail trend', () => {
  it('marks its devices\u2019 alarms on the quarter hour holding each, and a click finds the alarm', () => {
    const option = trendOption(input([alarm]));
    const marks = (option.series as Series[]).find((s) => s.name === '告警')!;
    expect(marks.markLine!.data.map((d) => [d.alarmId, d.xAxis])).toEqual([[41, '08:30']]);
    expect((option.xAxis as { data: string[] }).data).toEqual(['08:00', '08:15', '08:30', '08:45']);
  });

  it('lists the alarm in the tooltip of its bucket, escaped', () => {
    const format = (trendOption(input([alarm])).tooltip as { formatter: (p: unknown) => string }).formatter;
    const text = format([{ seriesName: '损耗率', value: 3.5, axisValue: '08:30', axisValueLabel: '08:30' }]);
    expect(text).toContain('损耗率: 3.50 %');
    expect(text).toContain('1#出线 · &lt;img src=x onerror=alert(1)&gt; (紧急');
    expect(text).not.toContain('<img');
    expect(format([{ seriesName: '损耗率', value: 1.5, axisValue: '08:00' }])).not.toContain('1#出线');
  });

  it('draws no marks without alarms', () => {
    const option = trendOption(input([]));
    expect((option.series as Series[]).map((s) => s.name)).toEqual(['损耗率']);
  });
});
