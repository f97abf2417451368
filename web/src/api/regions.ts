import type {
  BindInput,
  Binding,
  RegionInput,
  RegionNode,
  RegionOrder,
  RegionUpdate,
  Thing,
} from '@kilowatch/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../lib/http.ts';
import { type BindingFilters, keys, type TreeOptions } from './keys.ts';

/**
 * Regions (/api/regions): the tree, its bindings and the unbound things. Every key sits under
 * `keys.regions.all`; every write invalidates that root, since names, subtrees and bindings all
 * show in the trees with things (monitoring) and the binding tables.
 */

/**
 * GET /api/regions. The bare tree is small and its screens show their own placeholder (silent);
 * the tree with things can take a moment on a large plant, so the loading overlay shows.
 */
export const getRegionTree = ({ withThings = false, categoryId = null }: TreeOptions = {}) =>
  http.get<RegionNode[]>(
    '/api/regions',
    { withThings: withThings || undefined, categoryId: categoryId ?? undefined },
    { silent: !withThings },
  );

export const regionTreeQuery = (options: TreeOptions = {}) =>
  queryOptions({ queryKey: keys.regions.tree(options), queryFn: () => getRegionTree(options) });

export const useRegionTree = (options: TreeOptions = {}) => useQuery(regionTreeQuery(options));

export const createRegion = (input: RegionInput) => http.post<unknown>('/api/regions', input);

export const updateRegion = (id: number, input: RegionUpdate) =>
  http.put<unknown>(`/api/regions/${id}`, input);

/** The server answers 409 (message shown by the http module) while the region has children. */
export const deleteRegion = (id: number) => http.delete<void>(`/api/regions/${id}`);

export const reorderRegions = (order: RegionOrder) => http.patch<unknown>('/api/regions/order', order);

function useRegionMutation<V>(fn: (v: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.regions.all }),
  });
}

export const useCreateRegion = () => useRegionMutation(createRegion);

export const useUpdateRegion = () =>
  useRegionMutation(({ id, input }: { id: number; input: RegionUpdate }) => updateRegion(id, input));

export const useDeleteRegion = () => useRegionMutation(deleteRegion);

export const useReorderRegions = () => useRegionMutation(reorderRegions);

// ---- bindings -----------------------------------------------------------------------------------

export const getBindings = (regionId: number, filters: BindingFilters) =>
  http.get<Binding[]>(
    `/api/regions/${regionId}/bindings`,
    { categoryId: filters.categoryId, successor: filters.successor ? true : undefined },
    { silent: true },
  );

export const bindThings = (regionId: number, input: BindInput) =>
  http.post<unknown>(`/api/regions/${regionId}/bindings`, input);

export const unbindThings = (regionId: number, thingIds: readonly number[]) =>
  http.delete<void>(`/api/regions/${regionId}/bindings`, { thingIds: thingIds.join(',') });

export const useBindings = (regionId: number | null, filters: BindingFilters) =>
  useQuery({
    queryKey: keys.regions.bindings.of(regionId ?? 0, filters),
    queryFn: () => getBindings(regionId!, filters),
    enabled: regionId != null,
    placeholderData: keepPreviousData,
  });

export const useBindThings = () =>
  useRegionMutation(({ regionId, thingIds }: { regionId: number; thingIds: number[] }) =>
    bindThings(regionId, { thingIds }),
  );

export const useUnbindThings = () =>
  useRegionMutation(({ regionId, thingIds }: { regionId: number; thingIds: number[] }) =>
    unbindThings(regionId, thingIds),
  );

/** GET /api/regions/unbound: devices bound to no region (the monitoring tree's "unassigned" group). */
export const unboundThingsQuery = (categoryId: number | null) =>
  queryOptions({
    queryKey: keys.regions.unbound(categoryId),
    queryFn: () =>
      http.get<Thing[]>('/api/regions/unbound', { categoryId: categoryId ?? undefined }, { silent: true }),
  });
