import { HOME_REFRESH_MS, type MetricConfig, type MetricQuery } from '@kilowatch/contract';
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { keys } from '../../../api/keys.ts';
import { metricConfigsQuery } from '../../../api/metric-configs.ts';
import { regionTreeQuery } from '../../../api/regions.ts';
import { fetchMetricData } from '../../../api/telemetry.ts';
import { categoryAbilitiesQuery, METADATA_STALE_MS, useCategories } from '../../../api/things.ts';
import type { MetricSource } from '../../../components/charts/metrics.ts';

/** The plant: the first root region (GET /api/regions). Null once loaded when there is none. */
export function useRootRegion() {
  const tree = useQuery(regionTreeQuery());
  return { root: tree.data?.[0] ?? null, isPending: tree.isPending, error: tree.error };
}

const NO_CONFIGS: MetricConfig[] = [];

/** The root region's metric configs: they define the home charts. */
export function useHomeConfigs(rootId: number | null) {
  const configs = useQuery(
    metricConfigsQuery(
      rootId === null ? null : { resourceType: 'region', resourceId: rootId, categoryId: null },
    ),
  );
  return { configs: configs.data ?? NO_CONFIGS, isPending: configs.isPending && rootId !== null };
}

/** Every numeric ability of every category, once per identifier: what the home can chart. */
export function useAllSources(enabled: boolean): MetricSource[] {
  const categories = useCategories(enabled);
  const abilities = useQueries({
    queries: (categories.data ?? []).map((c) => ({
      ...categoryAbilitiesQuery(c.id),
      staleTime: METADATA_STALE_MS,
      enabled,
    })),
  });
  const key = abilities.map((a) => a.dataUpdatedAt).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for the answers
  return useMemo(() => {
    const seen = new Set<string>();
    const out: MetricSource[] = [];
    for (const a of abilities) {
      for (const ability of a.data ?? []) {
        if (seen.has(ability.identifier)) continue;
        seen.add(ability.identifier);
        out.push(ability);
      }
    }
    return out;
  }, [key]);
}

/**
 * A period chart's data, polled every 30 s (spec §9) without the loading overlay: the call is
 * silent (fetchMetricData), the previous answer stays on screen while the next one loads.
 */
export const usePeriodData = (query: MetricQuery | null) =>
  useQuery({
    queryKey: query ? keys.telemetry.data(query) : keys.telemetry.idle(),
    queryFn: ({ signal }) => fetchMetricData(query!, { signal }),
    enabled: query !== null,
    refetchInterval: HOME_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
