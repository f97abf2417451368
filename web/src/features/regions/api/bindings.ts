import type { BindInput, Binding } from '@kilowatch/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { type BindingFilters, regionKeys } from './keys.ts';

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
    queryKey: regionKeys.bindings(regionId ?? 0, filters),
    queryFn: () => getBindings(regionId!, filters),
    enabled: regionId != null,
    placeholderData: keepPreviousData,
  });

function useBindingMutation<V>(fn: (v: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: regionKeys.bindingsRoot() }),
  });
}

export const useBindThings = () =>
  useBindingMutation(({ regionId, thingIds }: { regionId: number; thingIds: number[] }) =>
    bindThings(regionId, { thingIds }),
  );

export const useUnbindThings = () =>
  useBindingMutation(({ regionId, thingIds }: { regionId: number; thingIds: number[] }) =>
    unbindThings(regionId, thingIds),
  );
