import { PlantCalendar } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { healthChartOption, healthRangeOf, percent } from './health.ts';

const shanghai = new PlantCalendar('Asia/Shanghai');
// 2026-11-22 10:00 in Shanghai.
const now = Date.parse('2026-11-22T02:00:00Z');

describe('the health tab’s range', () => {
  it('is today on the plant’s calendar by default', () => {
    expect(healthRangeOf(new URLSearchParams(), shanghai, now)).toEqual({
      from: '2026-11-22',
      to: '2026-11-22',
      start: Date.parse('2026-11-21T16:00:00Z'),
      end: Date.parse('2026-11-22T16:00:00Z'),
    });
  });

  it('takes plant dates from the address, the last day included', () => {
    const r = healthRangeOf(new URLSearchParams('from=2026-11-01&to=2026-11-07'), shanghai, now);
    expect(r.start).toBe(Date.parse('2026-10-31T16:00:00Z'));
    expect(r.end).toBe(Date.parse('2026-11-07T16:00:00Z'));
  });

  it('falls back to today for a backwards, malformed or too long range', () => {
    for (const bad of [
      'from=2026-11-07&to=2026-11-01',
      'from=2026-13-01&to=2026-13-02',
      'from=2026-01-01&to=2026-02-01',
    ]) {
      expect(healthRangeOf(new URLSearchParams(bad), shanghai, now).from).toBe('2026-11-22');
    }
    // 31 days is the longest taken.
    expect(healthRangeOf(new URLSearchParams('from=2026-01-01&to=2026-01-31'), shanghai, now).to).toBe(
      '2026-01-31',
    );
  });
});

describe('the health chart', () => {
  it('draws floods in red under the flood line at 10', () => {
    const option = healthChartOption(
      { periods: [0, 11, 10], startTime: 0 },
      { alarms: 'alarms', flood: 'flood' },
      (ms) => String(ms),
    ) as unknown as {
      xAxis: { data: string[] };
      series: {
        data: { value: number; itemStyle: { color: string } }[];
        markLine: { data: { yAxis: number }[] };
      }[];
    };
    expect(option.xAxis.data).toEqual(['0', '600000', '1200000']);
    expect(option.series[0]!.data.map((d) => d.itemStyle.color)).toEqual(['#1677ff', '#cf1322', '#1677ff']);
    expect(option.series[0]!.markLine.data).toEqual([{ yAxis: 10 }]);
    expect(percent(0.6667)).toBe('66.7 %');
  });
});
