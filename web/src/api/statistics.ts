import {
  ANALYSIS_REFRESH_MS,
  type FilterGroupInput,
  filterGroupCreate,
  filterGroupDelete,
  filterGroupList,
  filterGroupUpdate,
  type StatisticsExport,
  type StatisticsQuery,
  statisticsConfigGet,
  statisticsErpXlsx,
  statisticsOutput,
  statisticsRange,
} from '@kilowatch/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../lib/call.ts';
import { type DownloadProgress, postForBlob } from '../lib/http.ts';
import { keys } from './keys.ts';

/**
 * Energy statistics (/api/statistics) and filter groups (/api/filter-groups), cached under
 * `keys.statistics` and `keys.filterGroups`.
 */

/** Quiet: a range with nothing to draw (422, no such metric there) is the screen's empty state, not a toast. */
const fetchStatistics = (body: StatisticsQuery, signal?: AbortSignal) =>
  call(statisticsRange, { body, silent: true, quiet: true, signal });

/** A statistics range, polled every 30 s (spec §9) without the overlay; the last answer stays shown. */
export const useStatistics = (body: StatisticsQuery | null) =>
  useQuery({
    queryKey: body ? keys.statistics.range(body) : keys.statistics.range({ idle: true }),
    queryFn: ({ signal }) => fetchStatistics(body!, signal),
    enabled: body !== null,
    refetchInterval: ANALYSIS_REFRESH_MS,
    placeholderData: keepPreviousData,
  });

export const useStatisticsConfig = () =>
  useQuery({
    queryKey: keys.statistics.config(),
    queryFn: () => call(statisticsConfigGet, { silent: true }),
  });

/** The standard (xlsx or CSV) or ERP export as a file, through the generic post helper (spec §7). */
export const exportStatistics = (
  type: 'standard' | 'erp',
  body: StatisticsExport,
  options: { signal?: AbortSignal; onProgress?: (progress: DownloadProgress) => void } = {},
): Promise<Blob> => postForBlob((type === 'erp' ? statisticsErpXlsx : statisticsOutput).path, body, options);

// ---- filter groups ------------------------------------------------------------------------------

export const useFilterGroups = () =>
  useQuery({ queryKey: keys.filterGroups.all, queryFn: () => call(filterGroupList, { silent: true }) });

function useFilterGroupMutation<V>(fn: (v: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keys.filterGroups.all });
      await queryClient.invalidateQueries({ queryKey: keys.statistics.all });
    },
  });
}

export const useSaveFilterGroup = () =>
  useFilterGroupMutation(({ id, body }: { id: number | null; body: FilterGroupInput }) =>
    id === null ? call(filterGroupCreate, { body }) : call(filterGroupUpdate, { params: { id }, body }),
  );

export const useDeleteFilterGroup = () =>
  useFilterGroupMutation((id: number) => call(filterGroupDelete, { params: { id } }));
