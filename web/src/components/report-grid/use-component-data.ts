import { componentQueries, type Period, type ReportComponent } from '@kilowatch/contract';
import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { keys } from '../../api/keys.ts';
import { fetchMetricData } from '../../api/telemetry.ts';
import { usePlantCalendar } from '../../lib/plant-calendar.ts';
import type { MetricAnswer } from './component-series.ts';

/** Spec §9: analysis views refresh every 30 s. */
const KPI_REFRESH_MS = 30_000;

/**
 * A component's metrics over the report's period, each with its comparison, from the telemetry
 * query (`componentQueries`, the same the xlsx export asks). Null queries: no thing or region.
 */
export function useComponentData(
  component: Pick<ReportComponent, 'params' | 'metrics' | 'yoy'>,
  period: Period,
  time: number,
) {
  const calendar = usePlantCalendar();
  const queries = useMemo(
    () => componentQueries(component, period, time, calendar) ?? [],
    [component, period, time, calendar],
  );
  const results = useQueries({
    queries: queries.map((q) => ({
      queryKey: keys.telemetry.data(q),
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchMetricData(q, { signal }),
      refetchInterval: KPI_REFRESH_MS,
    })),
  });
  const answers: MetricAnswer[] = component.metrics.map((metric, i) => ({
    metric,
    answer: results[i]?.data,
  }));
  return {
    answers,
    loading: results.some((r) => r.isPending),
    error: results.find((r) => r.error)?.error ?? null,
    hasTarget: queries.length > 0,
  };
}
