import type { RegionNode } from '@kilowatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ResourceRef } from '../../../api/keys.ts';
import { metricConfigsQuery } from '../../../api/metric-configs.ts';
import { categoryAbilitiesQuery, METADATA_STALE_MS, thingAbilitiesQuery } from '../../../api/things.ts';
import { type ChartMetric, chartMetrics, type MetricSource } from '../../../components/charts/metrics.ts';
import { isCounterMetric } from '../../../components/charts/series.ts';
import { paletteColor } from '../../../components/charts/theme.ts';
import type { Selection } from '../lib/tree.ts';
import { firstThing } from '../lib/tree.ts';

const NO_SOURCES: MetricSource[] = [];

/**
 * What a resource can chart: its metric configs (GET /api/query/config) and the abilities the
 * metrics come from — a thing's own; for a region, the chosen category's, else those of the
 * first thing under it.
 */
export function useResourceMetrics(
  selection: Selection | null,
  node: RegionNode | null,
  categoryId: number | null,
) {
  const isRegion = selection?.resourceType === 'region';
  const ref: ResourceRef | null = useMemo(
    () => (selection ? { ...selection, categoryId: isRegion ? categoryId : null } : null),
    [selection, isRegion, categoryId],
  );
  const configs = useQuery(metricConfigsQuery(ref));
  const thingId = !selection
    ? null
    : selection.resourceType === 'thing'
      ? selection.resourceId
      : categoryId
        ? null
        : (firstThing(node)?.thingId ?? null);
  const thingAbilities = useQuery({ ...thingAbilitiesQuery(thingId), staleTime: METADATA_STALE_MS });
  const categoryAbilities = useQuery({
    ...categoryAbilitiesQuery(isRegion ? categoryId : null),
    staleTime: METADATA_STALE_MS,
  });
  const sources: MetricSource[] =
    (isRegion && categoryId ? categoryAbilities.data : thingAbilities.data) ?? NO_SOURCES;

  const metrics = useMemo(() => chartMetrics(configs.data, sources), [configs.data, sources]);
  /** 运行时长, 启动次数, 停机时长: numbers over the window, never lines. */
  const counters = useMemo<ChartMetric[]>(
    () =>
      sources
        .filter((s) => isCounterMetric(s.name))
        .map((s, i) => ({
          identifier: s.identifier,
          name: s.name,
          unit: s.unit,
          aggregator: s.cumulative ? 'delta' : s.aggregator,
          color: paletteColor(i),
        })),
    [sources],
  );
  return {
    ref,
    configs: configs.data ?? [],
    sources,
    metrics,
    counters,
    loading: configs.isPending && selection !== null,
    error: configs.error,
  };
}
