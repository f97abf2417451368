import type { ResourceType } from '@kilowatch/contract';
import type { ChartQuery } from '../../../api/telemetry.ts';
import type { ChartMetric } from '../../../components/charts/metrics.ts';
import {
  PERIOD_BUCKET,
  type Period,
  periodRange,
  type Shift,
  shiftTime,
} from '../../../components/charts/period.ts';
import { isAdditive } from '../../../components/charts/series.ts';

export interface ChartResource {
  resourceType: ResourceType;
  resourceId: number;
}

/**
 * The body of a period chart: the day by hours, the month by days or the year by months that
 * holds `time`. Regions include every descendant's things and answer one series (summed for
 * additive metrics, averaged otherwise). With `shift`, the same buckets that far back (year on
 * year comparison).
 */
export function periodQuery(
  resource: ChartResource,
  metric: ChartMetric,
  period: Period,
  time: number,
  shift: Shift | null = null,
): ChartQuery {
  const range = periodRange(period, time);
  const start = shift ? shiftTime(range.start, shift) : range.start;
  const end = shift ? shiftTime(range.end, shift) : range.end;
  const region = resource.resourceType === 'region';
  return {
    resourceType: resource.resourceType,
    resourceId: resource.resourceId,
    metricIdentifier: metric.identifier,
    metricName: metric.name,
    aggregator: metric.aggregator,
    period,
    groupByTime: PERIOD_BUCKET[period],
    groupByInterval: 1,
    startTime: start,
    endTime: end,
    unit: metric.unit || undefined,
    // The server combines a region's things by the metric's nature (sum for power and energy,
    // average for temperatures and voltages: contract defaultCombine).
    ...(region ? { successor: true } : {}),
  };
}

/** Bars for additive metrics (consumption per bucket), lines for the others. */
export const chartKind = (metric: ChartMetric): 'bar' | 'line' =>
  isAdditive(metric.aggregator) ? 'bar' : 'line';
