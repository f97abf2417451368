import {
  type Category,
  type CategoryAbilitiesPatch,
  type CategoryAbility,
  type CategoryAbilityInput,
  type CategoryInput,
  type EffectiveAbility,
  type ImportResult,
  type ImportRowError,
  MAX_PAGE_SIZE,
  type Model,
  type ModelAbilityPatch,
  type ModelInput,
  type Thing,
  type ThingInput,
  type ThingListItem,
  type ThingToken,
} from '@kilowatch/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Static } from 'typebox';
import type { PageOf } from '../components/crud/CrudPage.tsx';
import type { TableParams } from '../components/crud/use-table-params.ts';
import { download, HttpError, http, upload } from '../lib/http.ts';
import { keys, type ModelFilters, type ThingFilters, type ThingPickerParams } from './keys.ts';

/**
 * The device model (/api/thing): categories, models, things and their abilities. Every key sits
 * under `keys.things.all`, and every write here invalidates that root: a category's abilities show
 * through its models and things, categories count models, models count things, and the chart
 * screens list categories and abilities.
 */

/** Largest page the server returns; selects list every row in one call. */
export const ALL_PAGE_SIZE = MAX_PAGE_SIZE;

/** How long the chart screens reuse category and ability lists; writes invalidate them anyway. */
export const METADATA_STALE_MS = 60_000;

const useInvalidateThings = () => {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: keys.things.all });
};

// ---- categories ---------------------------------------------------------------------------------

export const getCategories = (params: TableParams, silent = false) =>
  http.get<PageOf<Category>>('/api/thing/categories', { ...params }, { silent });

export const createCategory = (input: CategoryInput) => http.post<Category>('/api/thing/categories', input);

export const updateCategory = (id: number, input: CategoryInput) =>
  http.put<Category>(`/api/thing/categories/${id}`, input);

export const deleteCategory = (id: number) => http.delete<void>(`/api/thing/categories/${id}`);

/** Every category, for selects and filters (one cache entry for every screen). */
export const categoriesQuery = () =>
  queryOptions({
    queryKey: keys.things.categories.options(),
    queryFn: () => getCategories({ page: 1, pageSize: ALL_PAGE_SIZE, name: '' }, true),
    select: (page) => page.list,
  });

export const useCategoryOptions = () => useQuery(categoriesQuery());

export const getCategoryAbilities = (categoryId: number) =>
  http.get<CategoryAbility[]>(`/api/thing/categories/${categoryId}/abilities`, undefined, { silent: true });

export const createCategoryAbility = (categoryId: number, input: CategoryAbilityInput) =>
  http.post<CategoryAbility>(`/api/thing/categories/${categoryId}/abilities`, input);

/** Several abilities of one category at once (the server's batch PATCH). */
export const patchCategoryAbilities = (categoryId: number, patch: CategoryAbilitiesPatch) =>
  http.patch<CategoryAbility[]>(`/api/thing/categories/abilities/${categoryId}`, patch);

export const deleteCategoryAbility = (id: number) =>
  http.delete<void>(`/api/thing/categories/abilities/${id}`);

export const categoryAbilitiesQuery = (categoryId: number | null) =>
  queryOptions({
    queryKey: keys.things.categories.abilities(categoryId ?? 0),
    queryFn: () => getCategoryAbilities(categoryId!),
    enabled: categoryId != null,
  });

export const useCategoryAbilities = (categoryId: number | null) =>
  useQuery(categoryAbilitiesQuery(categoryId));

export type AbilitySave =
  | { kind: 'create'; input: CategoryAbilityInput }
  | { kind: 'update'; patch: CategoryAbilitiesPatch[number] };

/** Creates, updates or deletes abilities of a category. */
export function useCategoryAbilityMutations(categoryId: number) {
  const onSuccess = useInvalidateThings();
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

// ---- models -------------------------------------------------------------------------------------

export const getModels = (params: TableParams & ModelFilters, silent = false) =>
  http.get<PageOf<Model>>('/api/thing/models', { ...params }, { silent });

export const createModel = (input: ModelInput) => http.post<Model>('/api/thing/models', input);

export const updateModel = (id: number, input: ModelInput) =>
  http.put<Model>(`/api/thing/models/${id}`, input);

export const deleteModel = (id: number) => http.delete<void>(`/api/thing/models/${id}`);

/** Every model of every category, for selects; narrowed by category on the client. */
export const modelOptionsQuery = () =>
  queryOptions({
    queryKey: keys.things.models.options(),
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
    queryKey: keys.things.models.abilities(modelId ?? 0),
    queryFn: () => getModelAbilities(modelId!),
    enabled: modelId != null,
  });

/** A thing's abilities are its model's, so thing drawers and charts are refreshed as well. */
export function usePatchModelAbility() {
  const onSuccess = useInvalidateThings();
  return useMutation({
    mutationFn: ({ abilityId, patch }: { abilityId: number; patch: ModelAbilityPatch }) =>
      patchModelAbility(abilityId, patch),
    onSuccess,
  });
}

// ---- things -------------------------------------------------------------------------------------

export const getThings = (params: Partial<TableParams> & ThingFilters, silent = false) =>
  http.get<PageOf<ThingListItem>>('/api/thing/things', { ...params }, { silent });

export const createThing = (input: ThingInput) => http.post<Thing>('/api/thing/things', input);

export const updateThing = (id: number, input: ThingInput) =>
  http.put<Thing>(`/api/thing/things/${id}`, input);

export const deleteThing = (id: number) => http.delete<void>(`/api/thing/things/${id}`);

/** Things whose name matches, for pickers (first 20). */
export const useThingSearch = (name: string) =>
  useQuery({
    queryKey: keys.things.things.search(name),
    queryFn: () => getThings({ page: 1, pageSize: 20, name }, true),
    select: (page) => page.list,
  });

/** Things for the region screen's bind picker. */
export const useThingPicker = (params: ThingPickerParams, enabled: boolean) =>
  useQuery({
    queryKey: keys.things.things.picker(params),
    queryFn: () =>
      http.get<PageOf<Thing>>(
        '/api/thing/things',
        { ...params, name: params.name || undefined },
        { silent: true },
      ),
    enabled,
    placeholderData: keepPreviousData,
  });

export const getThingAbilities = (thingId: number) =>
  http.get<EffectiveAbility[]>(`/api/thing/things/${thingId}/abilities`, undefined, { silent: true });

/** Removes inherited abilities from a thing; `ids` are category ability ids. */
export const removeThingAbilities = (thingId: number, ids: readonly number[]) =>
  http.delete<void>(`/api/thing/things/${thingId}/abilities`, { ids: ids.join(',') });

export const thingAbilitiesQuery = (thingId: number | null) =>
  queryOptions({
    queryKey: keys.things.things.abilities(thingId ?? 0),
    queryFn: () => getThingAbilities(thingId!),
    enabled: thingId != null,
  });

export const useThingAbilities = (thingId: number | null) => useQuery(thingAbilitiesQuery(thingId));

export function useRemoveThingAbilities(thingId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: readonly number[]) => removeThingAbilities(thingId, ids),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.things.things.abilities(thingId) }),
  });
}

// ---- access token -------------------------------------------------------------------------------

export const getThingToken = (thingId: number) =>
  http.get<ThingToken>(`/api/thing/things/${thingId}/token`, undefined, { silent: true });

/** Issues a new token; the old one stops working at once. */
export const regenerateThingToken = (thingId: number) =>
  http.post<ThingToken>(`/api/thing/things/${thingId}/token`);

export const useThingToken = (thingId: number | null) =>
  useQuery({
    queryKey: keys.things.things.token(thingId ?? 0),
    queryFn: () => getThingToken(thingId!),
    enabled: thingId != null,
    // A secret: fetched when the dialog opens, not kept around afterwards.
    gcTime: 0,
  });

export function useRegenerateThingToken(thingId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => regenerateThingToken(thingId),
    onSuccess: (token) => queryClient.setQueryData(keys.things.things.token(thingId), token),
  });
}

// ---- import -------------------------------------------------------------------------------------

export const IMPORT_FORMATS = ['xlsx', 'csv'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];
/** Largest import file accepted, checked before sending. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;

export const downloadImportTemplate = (format: ImportFormat) =>
  download(`/api/thing/things/import-template?format=${format}`, `things-template.${format}`, {
    quiet: true,
  });

/** A refused import: nothing was written; `errors` names the rows at fault. */
export class ImportRefused extends Error {
  constructor(
    message: string,
    readonly errors: ImportRowError[],
  ) {
    super(message);
    this.name = 'ImportRefused';
  }
}

/** Uploads an import file; a 422 becomes ImportRefused (its rows listed), other failures an HttpError. */
export async function importThings(file: File): Promise<Static<typeof ImportResult>> {
  try {
    return await upload<Static<typeof ImportResult>>('/api/thing/things/import', file, { quiet: true });
  } catch (e) {
    if (e instanceof HttpError && e.status === 422) {
      const body = e.body as { errors?: ImportRowError[] } | null;
      throw new ImportRefused(e.message, Array.isArray(body?.errors) ? body.errors : []);
    }
    throw e;
  }
}

/** New things change the models' thing counts too. */
export function useImportThings() {
  const onSuccess = useInvalidateThings();
  return useMutation({ mutationFn: importThings, onSuccess });
}

/** Every category for the chart and region screens' filters, reused for a minute between writes. */
export const useCategories = (enabled = true) =>
  useQuery({ ...categoriesQuery(), staleTime: METADATA_STALE_MS, enabled });
