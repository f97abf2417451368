import type { GroupByTime } from '@kilowatch/contract';
import type { TFunction } from 'i18next';
import { type ChartSeries, isCounterSeries } from './series.ts';

/**
 * What a number is, said in its label: a consumption per bucket is named per bucket
 * ("每分钟用电量"), a total over the plant's day is named for today ("今日用电量"). A label that
 * says "today" over the last minute's energy is the defect these helpers exist to prevent.
 */

export interface BucketSpec {
  groupByTime: GroupByTime;
  groupByInterval: number;
}

/** Consumption metrics: a counter's delta (or a sum/count) per bucket, never the raw register. */
export const isConsumption = (metric: { aggregator?: string | null; cumulative?: boolean }) =>
  isCounterSeries(metric);

/**
 * The name of a metric's value per bucket: `每分钟用电量`, `用电量 every 15 min`.
 * @example perBucketName(t, '用电量', { groupByTime: 'minute', groupByInterval: 1 }) // '每分钟用电量'
 */
export function perBucketName(t: TFunction, name: string, bucket: BucketSpec): string {
  const { groupByTime: unit, groupByInterval: count } = bucket;
  return count === 1
    ? t(`charts.label.per.${unit}`, { name })
    : t(`charts.label.every.${unit}`, { name, count });
}

/** The name of a metric's total over the plant's current day: `今日用电量`. */
export const todayName = (t: TFunction, name: string): string => t('charts.label.today', { name });

/**
 * A consumption's last bucket, still running, holds a part of its period: drawn beside full
 * buckets it reads as a sudden drop (a "cliff"). Line charts of consumption leave it out and
 * say so (`left`); bars keep it, pale, as a bucket of its own.
 */
export function leaveOutRunning(series: readonly ChartSeries[]): { series: ChartSeries[]; left: boolean } {
  let left = false;
  const out = series.map((s) => {
    const last = s.points.at(-1);
    if (!s.counter || !last || last.complete) return s;
    left = true;
    return { ...s, points: s.points.slice(0, -1) };
  });
  return { series: out, left };
}
