import { describe, expect, it } from 'vitest';
import { calendarOf } from '../../../lib/plant-calendar.ts';
import { alarmChartOption, alarmChartRange, limitsOf } from './alarm-chart.ts';

const H = 3_600_000;
const at = Date.parse('2026-11-23T08:00:00.000Z');

describe('the alarm detail chart', () => {
  it('runs from an hour before the alarm to an hour after its return', () => {
    const returnedAt = new Date(at + 30 * 60_000).toISOString();
    expect(alarmChartRange({ alarmAt: new Date(at).toISOString(), returnedAt }, at + 10 * H)).toEqual({
      start: at - H,
      end: at + 30 * 60_000 + H,
      spanEnd: at + 30 * 60_000,
    });
  });

  it('runs to now while the alarm is active, and never past now', () => {
    const alarmAt = new Date(at).toISOString();
    expect(alarmChartRange({ alarmAt, returnedAt: null }, at + 2 * H)).toEqual({
      start: at - H,
      end: at + 2 * H,
      spanEnd: at + 2 * H,
    });
    // Returned a moment ago: the hour after has not happened yet.
    const returnedAt = new Date(at + 10 * 60_000).toISOString();
    expect(alarmChartRange({ alarmAt, returnedAt }, at + 20 * 60_000).end).toBe(at + 20 * 60_000);
    // A clock behind the alarm still gives a range that ends after it starts.
    const behind = alarmChartRange({ alarmAt, returnedAt: null }, at - 5_000);
    expect(behind.end).toBeGreaterThan(behind.start);
    expect(behind.spanEnd).toBe(at);
  });

  it('draws a threshold or a range’s ends, and nothing for other conditions', () => {
    expect(limitsOf({ kind: 'threshold', op: '>', value: 80 })).toEqual([80]);
    expect(limitsOf({ kind: 'range', inside: false, low: 10, high: 20 })).toEqual([10, 20]);
    expect(limitsOf({ kind: 'noData', seconds: 60 })).toEqual([]);
    expect(limitsOf(undefined)).toEqual([]);
    const option = alarmChartOption(
      [[at, 95]],
      { limits: [80], span: [at, at + H], window: [at - H, at + 2 * H] },
      { metric: 'temp', alarm: '告警', limit: '限值' },
      calendarOf('Asia/Shanghai'),
    ) as unknown as {
      xAxis: { min: number; max: number; axisLabel: { formatter: (v: number) => string } };
      tooltip: { formatter: (p: unknown) => string };
      series: { markLine: { data: unknown[] }; markArea: { data: { xAxis: number }[][] } }[];
    };
    expect(option.series[0]!.markLine.data).toEqual([{ yAxis: 80 }]);
    expect([option.xAxis.min, option.xAxis.max]).toEqual([at - H, at + 2 * H]);
    expect(option.series[0]!.markArea.data[0]!.map((m) => m.xAxis)).toEqual([at, at + H]);
    // Read on the plant's calendar whatever the browser's zone: 08:00 UTC is 16:00 in Shanghai.
    expect(option.xAxis.axisLabel.formatter(at)).toBe('16:00');
    expect(
      option.tooltip.formatter([{ value: [at, 95], marker: '', seriesName: 'temp' }]).split('<br/>'),
    ).toEqual(['2026-11-23 16:00:00', 'temp: 95']);
  });

  it('shows a hostile metric name (ability and unit) in the tooltip as text', () => {
    const metric = 'temp (<img src=x onerror=alert(1)>)';
    const option = alarmChartOption(
      [[at, 95]],
      { limits: [], span: [at, at + H], window: [at - H, at + 2 * H] },
      { metric, alarm: '告警', limit: '限值' },
      calendarOf('Asia/Shanghai'),
    ) as unknown as { tooltip: { formatter: (p: unknown) => string } };
    expect(option.tooltip.formatter([{ value: [at, 95], color: '#f00', seriesName: metric }])).toBe(
      '2026-11-23 16:00:00<br/><span style="display:inline-block;margin-right:4px;border-radius:10px;width:10px;height:10px;background-color:#f00;"></span>temp (&lt;img src=x onerror=alert(1)&gt;): 95',
    );
  });
});
