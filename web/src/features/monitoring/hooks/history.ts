import type { QueryResult } from '@kilowatch/contract';
import { keepPreviousData, type UseQueryResult, useQueries } from '@tanstack/react-query';
import { keys } from '../../../api/keys.ts';
import { fetchMetricData } from '../../../api/telemetry.ts';
import type { ChartMetric } from '../../../components/charts/metrics.ts';
import type { Selection } from '../lib/tree.ts';
import { historyQuery, summaryQuery } from '../lib/window.ts';

type Range = { start: number; end: number };

const dataQueries = (
  selection: Selection | null,
  metrics: readonly ChartMetric[],
  range: Range,
  categoryId: number | null,
  build: typeof historyQuery,
) =>
  metrics.map((metric) => {
    const query = selection ? build(selection, metric, range, categoryId) : null;
    return {
      queryKey: query ? keys.telemetry.data(query) : keys.telemetry.idle(metric.identifier),
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchMetricData(query!, { signal }),
      enabled: query !== null,
      placeholderData: keepPreviousData,
    };
  });

/**
 * The answers side by side. A module-level function, so useQueries returns the same object
 * until an answer changes (stable dependency for memoised series).
 */
const combineAnswers = (results: UseQueryResult<QueryResult>[]) => ({
  answers: results.map((r) => r.data),
  fetching: results.some((r) => r.isFetching),
});

/** One query per chosen metric over the window (buckets or downsampling by span). */
export const useHistorySeries = (
  selection: Selection | null,
  metrics: readonly ChartMetric[],
  range: Range,
  categoryId: number | null,
) =>
  useQueries({
    queries: dataQueries(selection, metrics, range, categoryId, historyQuery),
    combine: combineAnswers,
  });

/** The counters (运行时长, 启动次数, 停机时长) over the whole window. */
export const useCounterSummary = (
  selection: Selection | null,
  counters: readonly ChartMetric[],
  range: Range,
  categoryId: number | null,
) =>
  useQueries({
    queries: dataQueries(selection, counters, range, categoryId, summaryQuery),
    combine: combineAnswers,
  });
