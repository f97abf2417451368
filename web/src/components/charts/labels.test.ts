import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { leaveOutRunning, perBucketName, todayName } from './labels.ts';
import type { ChartSeries } from './series.ts';

const t = ((key: string, o?: Record<string, unknown>) =>
  `${key}${JSON.stringify(o ?? {})}`) as unknown as TFunction;

describe('labels', () => {
  it('names a value per bucket and a total for today', () => {
    expect(perBucketName(t, '用电量', { groupByTime: 'minute', groupByInterval: 1 })).toBe(
      'charts.label.per.minute{"name":"用电量"}',
    );
    expect(perBucketName(t, '用电量', { groupByTime: 'minute', groupByInterval: 15 })).toBe(
      'charts.label.every.minute{"name":"用电量","count":15}',
    );
    expect(todayName(t, '用电量')).toBe('charts.label.today{"name":"用电量"}');
  });

  it("leaves a consumption's running last bucket out of its line, not a measure's", () => {
    const points = [
      { key: 0, value: 47, complete: true },
      { key: 60_000, value: 12, complete: false },
    ];
    const energy: ChartSeries = { name: '每分钟用电量', points, counter: true };
    const power: ChartSeries = { name: '功率', points };
    const { series, left } = leaveOutRunning([energy, power]);
    expect(left).toBe(true);
    expect(series[0]!.points.map((p) => p.value)).toEqual([47]);
    expect(series[1]!.points).toHaveLength(2);
    expect(leaveOutRunning([power]).left).toBe(false);
  });
});
