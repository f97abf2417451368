import type { Aggregator, MetricConfig, MetricConfigPatch } from '@kilowatch/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../lib/http.ts';
import { keys, type ResourceRef } from './keys.ts';

export type { ResourceRef } from './keys.ts';

/** Which metrics a resource's charts show (/api/query/config), cached under `keys.metricConfigs`. */

/** MetricConfigPatch with `aggregator` typed (same reason as telemetry.ts's ChartQuery). */
export type ConfigPatch = Omit<MetricConfigPatch, 'configs'> & {
  configs: (Omit<MetricConfigPatch['configs'][number], 'aggregator'> & { aggregator?: Aggregator })[];
};

export const fetchMetricConfigs = (r: ResourceRef) =>
  http.get<MetricConfig[]>(
    '/api/query/config',
    { resourceType: r.resourceType, resourceId: r.resourceId, categoryId: r.categoryId ?? undefined },
    { silent: true },
  );

export const metricConfigsQuery = (r: ResourceRef | null) =>
  queryOptions({
    queryKey: r ? keys.metricConfigs.of(r) : keys.metricConfigs.none(),
    queryFn: () => fetchMetricConfigs(r!),
    enabled: r !== null,
  });

export const saveMetricConfigs = (patch: ConfigPatch) =>
  http.patch<MetricConfig[]>('/api/query/config', patch);

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
