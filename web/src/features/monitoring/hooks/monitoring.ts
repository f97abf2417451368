import { MONITOR_REFRESH_MS } from '@kilowatch/contract';
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { keys } from '../../../api/keys.ts';
import { fetchCabinets, fetchDeviceStatus } from '../../../api/realtime.ts';
import { fetchMetricData } from '../../../api/telemetry.ts';
import { isConsumption } from '../../../components/charts/labels.ts';
import type { ChartMetric as Metric } from '../../../components/charts/metrics.ts';
import { usePlantCalendar } from '../../../lib/plant-calendar.ts';
import type { Selection } from '../lib/tree.ts';
import { realtimeQuery, todayQuery } from '../lib/window.ts';

// Each tick's calls are their own cache entries (the stamp is in the key): the view reads only
// the latest tick and keeps the previous answer on screen while it loads. A tick left behind
// loses its observer, so its pending call is aborted (the signal is passed on) and a late answer
// never reaches the view; its entry is collected after two periods.
const tickOptions = {
  placeholderData: keepPreviousData,
  gcTime: 2 * MONITOR_REFRESH_MS,
  retry: false,
} as const;

/** One query per metric for the tick `seq` (POST /api/query/data?seq=). */
export function useRealtimeSeries(
  selection: Selection | null,
  metrics: readonly Metric[],
  seq: string | null,
  categoryId: number | null,
) {
  return useQueries({
    queries: metrics.map((metric) => {
      const query = selection && seq ? realtimeQuery(selection, metric, seq, categoryId) : null;
      return {
        queryKey: query ? keys.telemetry.data(query, seq) : keys.telemetry.idle(metric.identifier),
        queryFn: async ({ signal }: { signal: AbortSignal }) => {
          const answer = await fetchMetricData(query!, { seq, signal });
          // The server echoes the stamp; an answer for another tick is not this tick's data.
          if (answer.seq !== null && answer.seq !== seq) throw new StaleAnswerError(answer.seq, seq);
          return answer;
        },
        enabled: query !== null,
        ...tickOptions,
      };
    }),
  });
}

/**
 * Today's consumption of each consumption metric (null for the others), asked of the server on
 * the plant calendar once per tick: the figure a "today" label stands for.
 */
export function useTodayTotals(
  selection: Selection | null,
  metrics: readonly Metric[],
  seq: string | null,
  categoryId: number | null,
) {
  const calendar = usePlantCalendar();
  return useQueries({
    queries: metrics.map((metric) => {
      const query =
        selection && seq && isConsumption(metric)
          ? todayQuery(selection, metric, seq, categoryId, calendar)
          : null;
      return {
        queryKey: query ? keys.telemetry.data(query, seq) : keys.telemetry.idle(`today:${metric.identifier}`),
        queryFn: ({ signal }: { signal: AbortSignal }) => fetchMetricData(query!, { seq, signal }),
        enabled: query !== null,
        ...tickOptions,
      };
    }),
  });
}

class StaleAnswerError extends Error {
  constructor(
    readonly answerSeq: string | null,
    readonly latestSeq: string | null,
  ) {
    super(`answer for seq ${answerSeq} ignored (latest ${latestSeq})`);
    this.name = 'StaleAnswerError';
  }
}

/** Device status of the tick (things). */
export const useDeviceStatus = (selection: Selection | null, seq: string | null, categoryId: number | null) =>
  useQuery({
    queryKey: selection
      ? keys.telemetry.realtime({ ...selection, categoryId }, seq)
      : [...keys.telemetry.all, 'realtime', 'idle'],
    queryFn: ({ signal }) => fetchDeviceStatus({ ...selection!, categoryId }, signal),
    enabled: selection !== null && seq !== null,
    ...tickOptions,
  });

/** Cabinets of a region, per tick (real-time view). */
export const useTickCabinets = (regionId: number | null, seq: string | null, categoryId: number | null) =>
  useQuery({
    queryKey: keys.boards.cabinets(regionId ?? 0, categoryId, seq),
    queryFn: ({ signal }) => fetchCabinets(regionId!, categoryId, signal),
    enabled: regionId !== null && seq !== null,
    ...tickOptions,
  });

/** Cabinets of several roots polled every 10 s (fire view; no stamps needed there). */
export const usePolledCabinets = (regionIds: readonly number[], categoryId: number | null) =>
  useQueries({
    queries: regionIds.map((id) => ({
      queryKey: keys.boards.cabinets(id, categoryId),
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchCabinets(id, categoryId, signal),
      enabled: categoryId !== null,
      refetchInterval: MONITOR_REFRESH_MS,
      placeholderData: keepPreviousData,
    })),
  });
