import { type MetricConfigPatch, metricConfigList, metricConfigSave } from '@kilowatch/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../lib/call.ts';
import { keys, type ResourceRef } from './keys.ts';

export type { ResourceRef } from './keys.ts';

/** Which metrics a resource's charts show (/api/query/config), cached under `keys.metricConfigs`. */

const fetchMetricConfigs = (r: ResourceRef) =>
  call(metricConfigList, {
    query: { resourceType: r.resourceType, resourceId: r.resourceId, categoryId: r.categoryId ?? undefined },
    silent: true,
  });

export const metricConfigsQuery = (r: ResourceRef | null) =>
  queryOptions({
    queryKey: r ? keys.metricConfigs.of(r) : keys.metricConfigs.none(),
    queryFn: () => fetchMetricConfigs(r!),
    enabled: r !== null,
  });

const saveMetricConfigs = (body: MetricConfigPatch) => call(metricConfigSave, { body });

/** PATCH /api/query/config; the answer replaces the cached list of that resource. */
export function useSaveMetricConfigs() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveMetricConfigs,
    onSuccess: async (configs, patch) => {
      if (Array.isArray(configs)) queryClient.setQueryData(keys.metricConfigs.of(patch), configs);
      await queryClient.invalidateQueries({ queryKey: keys.metricConfigs.all });
    },
  });
}
