import type { AlarmSpan } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { alarmMarksSeries, alarmPath, clickedAlarm } from './alarm-marks.ts';

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
