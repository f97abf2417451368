import {
  type MetricQuery,
  PERIOD_BUCKET,
  type PlantCalendar,
  type QueryComparison,
  type ResourceType,
} from '@kilowatch/contract';
import type { ChartMetric } from '../../../components/charts/metrics.ts';
import { type Period, periodRange } from '../../../components/charts/period.ts';
import { isAdditive } from '../../../components/charts/series.ts';

export interface ChartResource {
  resourceType: ResourceType;
  resourceId: number;
}

/**
 * The body of a period chart: the day by hours, the month by days or the year by months that
 * holds `time` on the plant calendar. Regions include every descendant's things and answer one
 * series (summed for additive metrics, averaged otherwise). With `compare`, the server answers
 * the comparison too, on the same buckets (year on year: contract QueryComparison).
 */
export function periodQuery(
  resource: ChartResource,
  metric: ChartMetric,
  period: Period,
  time: number,
  calendar: PlantCalendar,
  compare: QueryComparison | null = null,
): MetricQuery {
  const range = periodRange(period, time, calendar);
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
    startTime: range.start,
    endTime: range.end,
    unit: metric.unit || undefined,
    // The server combines a region's things by the metric's nature (sum for power and energy,
    // average for temperatures and voltages: contract defaultCombine).
    ...(region ? { successor: true } : {}),
    ...(compare ? { compare } : {}),
  };
}

/** Bars for additive metrics (consumption per bucket), lines for the others. */
export const chartKind = (metric: ChartMetric): 'bar' | 'line' =>
  isAdditive(metric.aggregator) ? 'bar' : 'line';
