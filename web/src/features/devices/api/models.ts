import type { EffectiveAbility, Model, ModelAbilityPatch, ModelInput } from '@kilowatch/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PageOf } from '../../../components/crud/CrudPage.tsx';
import type { TableParams } from '../../../components/crud/use-table-params.ts';
import { http } from '../../../lib/http.ts';
import { ALL_PAGE_SIZE } from './categories.ts';
import { type ModelFilters, modelKeys, thingKeys } from './keys.ts';

export const getModels = (params: TableParams & ModelFilters, silent = false) =>
  http.get<PageOf<Model>>('/api/thing/models', { ...params }, { silent });

export const createModel = (input: ModelInput) => http.post<Model>('/api/thing/models', input);

export const updateModel = (id: number, input: ModelInput) =>
  http.put<Model>(`/api/thing/models/${id}`, input);

export const deleteModel = (id: number) => http.delete<void>(`/api/thing/models/${id}`);

/** Every model of every category, for selects; narrowed by category on the client. */
export const modelOptionsQuery = () =>
  queryOptions({
    queryKey: modelKeys.options(),
    queryFn: () => getModels({ page: 1, pageSize: ALL_PAGE_SIZE, name: '' }, true),
    select: (page) => page.list,
  });

export const useModelOptions = () => useQuery(modelOptionsQuery());

export const getModelAbilities = (modelId: number) =>
  http.get<EffectiveAbility[]>(`/api/thing/models/${modelId}/abilities`, undefined, { silent: true });

/** Overrides fields of one category ability for a model; `reset: true` drops the override. */
export const patchModelAbility = (abilityId: number, patch: ModelAbilityPatch) =>
  http.patch<EffectiveAbility>(`/api/thing/models/abilities/${abilityId}`, patch);

export const useModelAbilities = (modelId: number | null) =>
  useQuery({
    queryKey: modelKeys.abilities(modelId ?? 0),
    queryFn: () => getModelAbilities(modelId!),
    enabled: modelId != null,
  });

export function usePatchModelAbility() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ abilityId, patch }: { abilityId: number; patch: ModelAbilityPatch }) =>
      patchModelAbility(abilityId, patch),
    // A thing's abilities are its model's, so open thing drawers are refreshed as well.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: modelKeys.all }),
        queryClient.invalidateQueries({ queryKey: thingKeys.all }),
      ]),
  });
}
