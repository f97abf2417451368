import type {
  Aggregator,
  Category,
  CategoryAbility,
  EffectiveAbility,
  GroupByTime,
  MetricConfig,
  MetricConfigPatch,
  MetricQuery,
  Period,
  QueryAggregator,
  QueryResult,
  RegionNode,
  ResourceType,
} from '@kilowatch/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { plantZone } from '../../../lib/plant-calendar.ts';

/**
 * Calls of the chart screens (spec §7 "Query and monitoring", regions, abilities), shared by
 * monitoring, home and later analysis/KPI. Every key starts with `telemetry`, built here only.
 */

/**
 * MetricQuery with its literal unions spelled out: contract/src/query.ts builds them with
 * Type.Union over a mapped array, whose static type is `undefined` (see things.ts's note).
 * Same wire shape; drop this once the contract uses Type.Enum there.
 */
export type ChartQuery = Omit<MetricQuery, 'aggregator' | 'groupByTime' | 'period'> & {
  aggregator?: QueryAggregator;
  groupByTime?: GroupByTime | 'auto';
  period?: Period;
};

/** MetricConfigPatch with `aggregator` typed (same reason as ChartQuery). */
export type ConfigPatch = Omit<MetricConfigPatch, 'configs'> & {
  configs: (Omit<MetricConfigPatch['configs'][number], 'aggregator'> & { aggregator?: Aggregator })[];
};

export interface ResourceRef {
  resourceType: ResourceType;
  resourceId: number;
  categoryId?: number | null;
}

export const telemetryKeys = {
  all: ['telemetry'] as const,
  configs: (r: ResourceRef) =>
    [...telemetryKeys.all, 'configs', r.resourceType, r.resourceId, r.categoryId ?? null] as const,
  /** A metric query; `seq` makes every tick of a real-time view its own entry. */
  data: (query: ChartQuery, seq: string | null = null) => [...telemetryKeys.all, 'data', query, seq] as const,
  regionTree: (withThings: boolean, categoryId: number | null = null) =>
    [...telemetryKeys.all, 'regions', { withThings, categoryId }] as const,
  categories: () => [...telemetryKeys.all, 'categories'] as const,
  categoryAbilities: (categoryId: number) =>
    [...telemetryKeys.all, 'categories', categoryId, 'abilities'] as const,
  thingAbilities: (thingId: number) => [...telemetryKeys.all, 'things', thingId, 'abilities'] as const,
};

export interface DataCallOptions {
  /** The request's stamp (Date.now() string); the server echoes it in the answer. */
  seq?: string | null;
  signal?: AbortSignal;
}

/**
 * POST /api/query/data?seq=. Silent (charts poll; no 加载中... flash) and allowed to run
 * concurrently with the other charts' calls.
 */
export const fetchMetricData = async (query: ChartQuery, { seq, signal }: DataCallOptions = {}) => {
  const answer = await http.post<QueryResult>('/api/query/data', query, {
    params: { seq: seq ?? undefined },
    silent: true,
    allowDuplicate: true,
    signal,
  });
  if (answer.timeZone) knownPlantZone = answer.timeZone;
  return answer;
};

let knownPlantZone: string | null = null;

/**
 * The plant's time zone (PLANT_TIMEZONE) as the last query answer told it, else as /api/auth/me
 * did (lib/plant-calendar.ts). Exports print their times in it.
 */
export const plantTimeZone = (): string => knownPlantZone ?? plantZone();

/** An answer belongs to the latest tick only when it echoes the latest stamp (spec §4). */
export const isCurrentAnswer = (answer: Pick<QueryResult, 'seq'> | undefined, latestSeq: string | null) =>
  answer !== undefined && latestSeq !== null && answer.seq === latestSeq;

export const fetchMetricConfigs = (r: ResourceRef) =>
  http.get<MetricConfig[]>(
    '/api/query/config',
    { resourceType: r.resourceType, resourceId: r.resourceId, categoryId: r.categoryId ?? undefined },
    { silent: true },
  );

export const metricConfigsQuery = (r: ResourceRef | null) =>
  queryOptions({
    queryKey: r ? telemetryKeys.configs(r) : [...telemetryKeys.all, 'configs', 'none'],
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
      const key = telemetryKeys.configs(patch);
      if (Array.isArray(configs)) queryClient.setQueryData(key, configs);
      await queryClient.invalidateQueries({ queryKey: [...telemetryKeys.all, 'configs'] });
    },
  });
}

export const regionTreeQuery = (withThings: boolean, categoryId: number | null = null) =>
  queryOptions({
    queryKey: telemetryKeys.regionTree(withThings, categoryId),
    queryFn: () =>
      http.get<RegionNode[]>('/api/regions', {
        withThings: withThings || undefined,
        categoryId: categoryId ?? undefined,
      }),
  });

/** Every category (GET /api/thing/categories?pageSize=1000). */
export const categoriesQuery = () =>
  queryOptions({
    queryKey: telemetryKeys.categories(),
    queryFn: () =>
      http.get<{ list: Category[] }>('/api/thing/categories', { page: 1, pageSize: 1000 }, { silent: true }),
    select: (page) => page.list,
    staleTime: 60_000,
  });

export const categoryAbilitiesQuery = (categoryId: number | null) =>
  queryOptions({
    queryKey: telemetryKeys.categoryAbilities(categoryId ?? 0),
    queryFn: () =>
      http.get<CategoryAbility[]>(`/api/thing/categories/${categoryId}/abilities`, undefined, {
        silent: true,
      }),
    enabled: categoryId != null,
    staleTime: 60_000,
  });

export const thingAbilitiesQuery = (thingId: number | null) =>
  queryOptions({
    queryKey: telemetryKeys.thingAbilities(thingId ?? 0),
    queryFn: () =>
      http.get<EffectiveAbility[]>(`/api/thing/things/${thingId}/abilities`, undefined, { silent: true }),
    enabled: thingId != null,
    staleTime: 60_000,
  });
