import type { CategoryAbilitiesPatch, CategoryAbility, CategoryAbilityInput } from '@kilowatch/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { categoryKeys, thingRootKey } from './keys.ts';

export const getCategoryAbilities = (categoryId: number) =>
  http.get<CategoryAbility[]>(`/api/thing/categories/${categoryId}/abilities`, undefined, { silent: true });

export const createCategoryAbility = (categoryId: number, input: CategoryAbilityInput) =>
  http.post<CategoryAbility>(`/api/thing/categories/${categoryId}/abilities`, input);

/** Several abilities of one category at once (the server's batch PATCH). */
export const patchCategoryAbilities = (categoryId: number, patch: CategoryAbilitiesPatch) =>
  http.patch<CategoryAbility[]>(`/api/thing/categories/abilities/${categoryId}`, patch);

export const deleteCategoryAbility = (id: number) =>
  http.delete<void>(`/api/thing/categories/abilities/${id}`);

export const useCategoryAbilities = (categoryId: number | null) =>
  useQuery({
    queryKey: categoryKeys.abilities(categoryId ?? 0),
    queryFn: () => getCategoryAbilities(categoryId!),
    enabled: categoryId != null,
  });

export type AbilitySave =
  | { kind: 'create'; input: CategoryAbilityInput }
  | { kind: 'update'; patch: CategoryAbilitiesPatch[number] };

/**
 * Creates, updates or deletes abilities of a category. A category's abilities show through its
 * models and things (and in the category's ability count), so every cache under /api/thing is
 * refreshed.
 */
export function useCategoryAbilityMutations(categoryId: number) {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: thingRootKey });
  const save = useMutation({
    mutationFn: (action: AbilitySave): Promise<unknown> =>
      action.kind === 'create'
        ? createCategoryAbility(categoryId, action.input)
        : patchCategoryAbilities(categoryId, [action.patch]),
    onSuccess,
  });
  const remove = useMutation({ mutationFn: deleteCategoryAbility, onSuccess });
  return { save, remove };
}
