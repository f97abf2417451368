import {
  type BindInput,
  type RegionInput,
  type RegionOrder,
  type RegionUpdate,
  regionBind,
  regionBindingList,
  regionCreate,
  regionDelete,
  regionOrder,
  regionTree,
  regionUnbind,
  regionUnbound,
  regionUpdate,
} from '@kilowatch/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../lib/call.ts';
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
const getRegionTree = ({ withThings = false, categoryId = null }: TreeOptions = {}) =>
  call(regionTree, {
    query: { withThings: withThings || undefined, categoryId: categoryId ?? undefined },
    silent: !withThings,
  });

export const regionTreeQuery = (options: TreeOptions = {}) =>
  queryOptions({ queryKey: keys.regions.tree(options), queryFn: () => getRegionTree(options) });

export const useRegionTree = (options: TreeOptions = {}) => useQuery(regionTreeQuery(options));

const createRegion = (body: RegionInput) => call(regionCreate, { body });

const updateRegion = (id: number, body: RegionUpdate) => call(regionUpdate, { params: { id }, body });

/** The server answers 409 (message shown by the http module) while the region has children. */
const deleteRegion = (id: number) => call(regionDelete, { params: { id } });

const reorderRegions = (body: RegionOrder) => call(regionOrder, { body });

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

const getBindings = (regionId: number, filters: BindingFilters) =>
  call(regionBindingList, {
    params: { id: regionId },
    query: { categoryId: filters.categoryId, successor: filters.successor ? true : undefined },
    silent: true,
  });

const bindThings = (regionId: number, body: BindInput) =>
  call(regionBind, { params: { id: regionId }, body });

const unbindThings = (regionId: number, thingIds: readonly number[]) =>
  call(regionUnbind, { params: { id: regionId }, query: { thingIds: thingIds.join(',') } });

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
    queryFn: () => call(regionUnbound, { query: { categoryId: categoryId ?? undefined }, silent: true }),
  });
