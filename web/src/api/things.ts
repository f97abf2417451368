import {
  type CategoryAbilitiesPatch,
  type CategoryAbilityInput,
  type CategoryInput,
  categoryAbilityCreate,
  categoryAbilityDelete,
  categoryAbilityList,
  categoryAbilityUpdateMany,
  categoryCreate,
  categoryDelete,
  categoryList,
  categoryUpdate,
  type ImportResult,
  type ImportRowError,
  MAX_PAGE_SIZE,
  type ModelAbilityPatch,
  type ModelInput,
  modelAbilityList,
  modelAbilityPatch,
  modelCreate,
  modelDelete,
  modelList,
  modelUpdate,
  type ThingInput,
  thingAbilityList,
  thingAbilityRemove,
  thingCreate,
  thingDelete,
  thingImport,
  thingImportTemplate,
  thingList,
  thingTokenGet,
  thingTokenRegenerate,
  thingUpdate,
} from '@kilowatch/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Static } from 'typebox';
import { call } from '../lib/call.ts';
import { buildUrl, download, HttpError, upload } from '../lib/http.ts';
import { sortByName } from '../lib/natural-sort.ts';
import type { TableParams } from '../lib/table-params.ts';
import { keys, type ModelFilters, type ThingFilters, type ThingPickerParams } from './keys.ts';

/**
 * The device model (/api/thing): categories, models, things and their abilities. Every key sits
 * under `keys.things.all`, and every write here invalidates that root: a category's abilities show
 * through its models and things, categories count models, models count things, and the chart
 * screens list categories and abilities.
 */

/** Largest page the server returns; selects list every row in one call. */
const ALL_PAGE_SIZE = MAX_PAGE_SIZE;

/** How long the chart screens reuse category and ability lists; writes invalidate them anyway. */
export const METADATA_STALE_MS = 60_000;

const useInvalidateThings = () => {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: keys.things.all });
};

// ---- categories ---------------------------------------------------------------------------------

export const getCategories = (query: TableParams, silent = false) => call(categoryList, { query, silent });

export const createCategory = (body: CategoryInput) => call(categoryCreate, { body });

export const updateCategory = (id: number, body: CategoryInput) =>
  call(categoryUpdate, { params: { id }, body });

export const deleteCategory = (id: number) => call(categoryDelete, { params: { id } });

/** Every category, for selects and filters (one cache entry for every screen). */
const categoriesQuery = () =>
  queryOptions({
    queryKey: keys.things.categories.options(),
    queryFn: () => getCategories({ page: 1, pageSize: ALL_PAGE_SIZE, name: '' }, true),
    select: (page) => page.list,
  });

export const useCategoryOptions = () => useQuery(categoriesQuery());

const getCategoryAbilities = (categoryId: number) =>
  call(categoryAbilityList, { params: { categoryId }, silent: true });

const createCategoryAbility = (categoryId: number, body: CategoryAbilityInput) =>
  call(categoryAbilityCreate, { params: { categoryId }, body });

/** Several abilities of one category at once (the server's batch PATCH). */
const patchCategoryAbilities = (categoryId: number, body: CategoryAbilitiesPatch) =>
  call(categoryAbilityUpdateMany, { params: { categoryId }, body });

const deleteCategoryAbility = (id: number) => call(categoryAbilityDelete, { params: { id } });

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

export const getModels = (query: TableParams & ModelFilters, silent = false) =>
  call(modelList, { query, silent });

export const createModel = (body: ModelInput) => call(modelCreate, { body });

export const updateModel = (id: number, body: ModelInput) => call(modelUpdate, { params: { id }, body });

export const deleteModel = (id: number) => call(modelDelete, { params: { id } });

/** Every model of every category, for selects; narrowed by category on the client. */
const modelOptionsQuery = () =>
  queryOptions({
    queryKey: keys.things.models.options(),
    queryFn: () => getModels({ page: 1, pageSize: ALL_PAGE_SIZE, name: '' }, true),
    select: (page) => page.list,
  });

export const useModelOptions = () => useQuery(modelOptionsQuery());

const getModelAbilities = (modelId: number) =>
  call(modelAbilityList, { params: { id: modelId }, silent: true });

/** Overrides fields of one category ability for a model; `reset: true` drops the override. */
const patchModelAbility = (abilityId: number, body: ModelAbilityPatch) =>
  call(modelAbilityPatch, { params: { abilityId }, body });

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

export const getThings = (query: Partial<TableParams> & ThingFilters, silent = false) =>
  call(thingList, { query, silent });

export const createThing = (body: ThingInput) => call(thingCreate, { body });

export const updateThing = (id: number, body: ThingInput) => call(thingUpdate, { params: { id }, body });

export const deleteThing = (id: number) => call(thingDelete, { params: { id } });

/** Things whose name matches, for pickers (first 20), in natural order (1#, 2#, … 10#). */
export const useThingSearch = (name: string) =>
  useQuery({
    queryKey: keys.things.things.search(name),
    queryFn: () => getThings({ page: 1, pageSize: 20, name }, true),
    select: (page) => sortByName(page.list),
  });

/** Things for the region screen's bind picker. */
export const useThingPicker = (params: ThingPickerParams, enabled: boolean) =>
  useQuery({
    queryKey: keys.things.things.picker(params),
    queryFn: () => getThings({ ...params, name: params.name || undefined }, true),
    enabled,
    placeholderData: keepPreviousData,
  });

const getThingAbilities = (thingId: number) =>
  call(thingAbilityList, { params: { id: thingId }, silent: true });

/** Removes inherited abilities from a thing; `ids` are category ability ids. */
const removeThingAbilities = (thingId: number, ids: readonly number[]) =>
  call(thingAbilityRemove, { params: { id: thingId }, query: { ids: ids.join(',') } });

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

const getThingToken = (thingId: number) => call(thingTokenGet, { params: { id: thingId }, silent: true });

/** Issues a new token; the old one stops working at once. */
const regenerateThingToken = (thingId: number) => call(thingTokenRegenerate, { params: { id: thingId } });

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
  download(buildUrl(thingImportTemplate.path, { format }), `things-template.${format}`, { quiet: true });

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
async function importThings(file: File): Promise<Static<typeof ImportResult>> {
  try {
    return await upload<Static<typeof ImportResult>>(thingImport.path, file, { quiet: true });
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

/**
 * Every thing of a category (one page of MAX_PAGE_SIZE), for pickers such as the alarm backtest
 * and the report components' device select, in natural order (1#, 2#, … 10#).
 */
export const useThingsOfCategory = (categoryId: number | null) =>
  useQuery({
    queryKey: keys.things.things.list({ categoryId: categoryId ?? undefined }),
    queryFn: () => getThings({ page: 1, pageSize: ALL_PAGE_SIZE, categoryId: categoryId! }, true),
    enabled: categoryId != null,
    select: (page) => sortByName(page.list),
  });
