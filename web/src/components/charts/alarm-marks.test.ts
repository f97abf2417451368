import type { AlarmSpan } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { calendarOf } from '../../lib/plant-calendar.ts';
import {
  alarmMarksSeries,
  alarmPath,
  alarmsWithin,
  alarmTipLines,
  bucketAlarmLines,
  clickedAlarm,
} from './alarm-marks.ts';
import { buildCartesianOption } from './options.ts';
import { chartTheme } from './theme.ts';

const H = 3_600_000;
const window = { start: 10 * H, end: 18 * H };
const span = (id: number, alarmAt: number, returnedAt: number | null, active = false): AlarmSpan => ({
  id,
  thingId: 1,
  thingName: '空压机1',
  ruleName: '排气温度高',
  ability: 'T',
  severity: id === 3 ? 'critical' : 'major',
  message: '',
  value: '107',
  alarmAt,
  returnedAt,
  active,
});

describe('alarm marks', () => {
  it('shades each alarm from its raise to its return, clipped to the window, and marks the raise', () => {
    const series = alarmMarksSeries(
      [span(1, 9 * H, 11 * H), span(2, 12 * H, 12.5 * H), span(3, 17 * H, null, true)],
      window,
      17.5 * H,
      { series: '告警' },
    )!;
    expect(series.name).toBe('告警');
    const areas = (series.markArea!.data as { alarmId: number; xAxis: number }[][]).map(([a, b]) => [
      a!.alarmId,
      a!.xAxis,
      b!.xAxis,
    ]);
    // Raised before the window: shaded from its start. Active: to now.
    expect(areas).toEqual([
      [1, 10 * H, 11 * H],
      [2, 12 * H, 12.5 * H],
      [3, 17 * H, 17.5 * H],
    ]);
    const lines = series.markLine!.data as { alarmId: number; xAxis: number; name: string }[];
    expect(lines.map((l) => [l.alarmId, l.xAxis])).toEqual([
      [2, 12 * H],
      [3, 17 * H],
    ]);
    expect(lines[0]!.name).toBe('空压机1 排气温度高');
  });

  it('draws nothing without alarms, and a closed-by-hand alarm only as its raise', () => {
    expect(alarmMarksSeries([], window, 0, { series: '告警' })).toBeNull();
    const series = alarmMarksSeries([span(4, 11 * H, null)], window, 12 * H, { series: '告警' })!;
    expect(series.markArea!.data).toEqual([]);
    expect(series.markLine!.data).toHaveLength(1);
  });

  it('leaves names off when many alarms would pile them up', () => {
    const many = Array.from({ length: 7 }, (_, i) =>
      span(10 + i, 11 * H + i * 60_000, 11 * H + i * 60_000 + 1),
    );
    const series = alarmMarksSeries(many, window, 12 * H, { series: '告警' })!;
    expect((series.markLine!.data as { name: string }[]).every((l) => l.name === '')).toBe(true);
  });

  it('turns a click on a mark into the alarm it opens', () => {
    expect(clickedAlarm({ componentType: 'markArea', data: { alarmId: 7 } })).toBe(7);
    expect(clickedAlarm({ componentType: 'markLine', data: { alarmId: 8 } })).toBe(8);
    expect(clickedAlarm({ componentType: 'series', data: [1, 2] })).toBeNull();
    expect(alarmPath(7)).toBe('/alarm_center/alarm_history?id=7');
  });
});

const words = {
  severity: { critical: '紧急', major: '重要', minor: '次要', warning: '提示' },
  time: (ms: number) => `t${ms / H}`,
  active: '未恢复',
};
type Area = { alarmId: number; xAxis?: number | string }[];

describe('alarm marks on buckets (KPI, board, home, overview energy, diagram trend)', () => {
  // A day by hours from 10:00: the categories a period chart draws.
  const buckets = {
    starts: [10, 11, 12, 13, 14, 15, 16, 17].map((h) => h * H),
    label: (k: number) => `${k / H}:00`,
  };

  it('puts each mark on the bucket holding its time, an area at least one bucket wide', () => {
    const series = alarmMarksSeries(
      [span(1, 9 * H, 11.5 * H), span(2, 12.25 * H, 12.5 * H), span(3, 17.2 * H, null, true)],
      window,
      17.5 * H,
      { series: '告警' },
      buckets,
    )!;
    const areas = (series.markArea!.data as Area[]).map(([a, b]) => [a!.alarmId, a!.xAxis, b!.xAxis]);
    expect(areas).toEqual([
      // From the window's first bucket to past the one it returned in.
      [1, '10:00', '12:00'],
      // Inside one hour: that hour's bucket to the next.
      [2, '12:00', '13:00'],
      // In the last bucket: to the axis's end (no end given), never an area of no width.
      [3, '17:00', undefined],
    ]);
    const lines = series.markLine!.data as { alarmId: number; xAxis: string }[];
    expect(lines.map((l) => [l.alarmId, l.xAxis])).toEqual([
      [2, '12:00'],
      [3, '17:00'],
    ]);
  });

  it('draws nothing on a chart without buckets yet', () => {
    const series = alarmMarksSeries(
      [span(2, 12 * H, 13 * H)],
      window,
      14 * H,
      { series: '告警' },
      {
        starts: [],
        label: String,
      },
    )!;
    expect(series.markArea!.data).toEqual([]);
    expect(series.markLine!.data).toEqual([]);
  });

  it('marks a period chart built by buildCartesianOption on its categories', () => {
    const calendar = calendarOf('UTC');
    const day = Date.UTC(2026, 10, 27);
    const raised = day + 14.5 * H;
    const option = buildCartesianOption({
      series: [{ name: '用电量', points: [{ key: day, value: 1, complete: true }] }],
      theme: chartTheme('medium', 'card'),
      kind: 'bar',
      period: { period: 'day', time: day },
      calendar,
      alarms: { spans: [span(5, raised, raised + 0.25 * H)], label: '告警', now: raised + H, words },
    });
    const marks = (option.series as { name?: string; markLine?: { data: unknown[] } }[]).find(
      (x) => x.name === '告警',
    )!;
    expect((marks.markLine!.data as { xAxis: string }[])[0]!.xAxis).toBe('14:00');
    expect((option.xAxis as { data: string[] }).data).toContain('14:00');
  });
});

describe('the alarm lines of a tooltip', () => {
  it('lists the alarms standing in the hovered stretch, escaping every name', () => {
    const hostile = { ...span(9, 12 * H, 13 * H), ruleName: '<img src=x onerror=alert(1)>' };
    const spans = [hostile, span(3, 14 * H, null, true), span(4, 9 * H, 10 * H)];
    expect(alarmsWithin(spans, 12.5 * H, 12.6 * H, 15 * H).map((a) => a.id)).toEqual([9]);
    // Active: standing until now.
    expect(alarmsWithin(spans, 14.5 * H, 15 * H, 15 * H).map((a) => a.id)).toEqual([3]);
    const [line] = alarmTipLines([hostile], words).map(String);
    expect(line).toContain('空压机1 · &lt;img src=x onerror=alert(1)&gt; (重要, t12 – t13)');
    expect(line).not.toContain('<img');
    expect(alarmTipLines([span(3, 14 * H, null, true)], words).map(String)[0]).toContain(
      '(紧急, t14 – 未恢复)',
    );
  });

  it('lists the newest first and sums up past five alarms', () => {
    const many = Array.from({ length: 7 }, (_, i) => ({
      ...span(20 + i, 12 * H + i * 60_000, 13 * H),
      ruleName: `规则${i}`,
    }));
    const lines = alarmTipLines(many, words).map(String);
    expect(lines).toHaveLength(6);
    expect(lines[0]).toContain('规则6');
    expect(lines[4]).toContain('规则2');
    expect(lines[5]).toBe('… (+2)');
  });

  it('answers a hovered bucket of a category axis with the alarms inside it', () => {
    const buckets = { starts: [10 * H, 11 * H, 12 * H], label: (k: number) => `${k / H}:00` };
    const at = bucketAlarmLines([span(2, 11.5 * H, 11.75 * H)], words, 13 * H, buckets, 13 * H);
    expect(at('11:00').map(String)[0]).toContain('排气温度高');
    expect(at('10:00')).toEqual([]);
    expect(at('12:00')).toEqual([]);
    expect(at('nonsense')).toEqual([]);
  });

  it('shows in the axis tooltip of a period chart, below the values', () => {
    const calendar = calendarOf('UTC');
    const day = Date.UTC(2026, 10, 27);
    const raised = day + 14.5 * H;
    const option = buildCartesianOption({
      series: [{ name: '用电量', unit: 'kWh', points: [{ key: day + 14 * H, value: 3, complete: true }] }],
      theme: chartTheme('medium', 'card'),
      kind: 'bar',
      period: { period: 'day', time: day },
      calendar,
      alarms: { spans: [span(5, raised, raised + 0.25 * H)], label: '告警', now: raised + H, words },
    });
    const format = (option.tooltip as { formatter: (p: unknown) => string }).formatter;
    const text = format([{ seriesName: '用电量', value: ['14:00', 3], axisValue: '14:00' }]);
    expect(text).toContain('用电量: 3.00 kWh');
    expect(text).toContain('空压机1 · 排气温度高 (重要');
    expect(format([{ seriesName: '用电量', value: ['13:00', 3], axisValue: '13:00' }])).not.toContain(
      '排气温度高',
    );
  });
});
