import type { RegionInput, RegionNode, RegionOrder, RegionUpdate } from '@kilowatch/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { regionKeys } from './keys.ts';

export const getRegionTree = () => http.get<RegionNode[]>('/api/regions', undefined, { silent: true });

export const createRegion = (input: RegionInput) => http.post<unknown>('/api/regions', input);

export const updateRegion = (id: number, input: RegionUpdate) =>
  http.put<unknown>(`/api/regions/${id}`, input);

/** The server answers 409 (message shown by the http module) while the region has children. */
export const deleteRegion = (id: number) => http.delete<void>(`/api/regions/${id}`);

export const reorderRegions = (order: RegionOrder) => http.patch<unknown>('/api/regions/order', order);

export const regionTreeQuery = () => ({ queryKey: regionKeys.tree(), queryFn: getRegionTree });

export const useRegionTree = () => useQuery(regionTreeQuery());

/** Any change to the tree: refresh the tree and the bindings (region names and subtrees change). */
function useRegionMutation<V>(fn: (v: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: regionKeys.all }),
  });
}

export const useCreateRegion = () => useRegionMutation(createRegion);

export const useUpdateRegion = () =>
  useRegionMutation(({ id, input }: { id: number; input: RegionUpdate }) => updateRegion(id, input));

export const useDeleteRegion = () => useRegionMutation(deleteRegion);

export const useReorderRegions = () => useRegionMutation(reorderRegions);
