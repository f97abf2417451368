import type {
  EffectiveAbility,
  ImportResult,
  ImportRowError,
  Thing,
  ThingInput,
  ThingListItem,
  ThingToken,
} from '@kilowatch/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Static } from 'typebox';
import type { PageOf } from '../../../components/crud/CrudPage.tsx';
import type { TableParams } from '../../../components/crud/use-table-params.ts';
import { download, HttpError, http, upload } from '../../../lib/http.ts';
import { type ThingFilters, thingKeys, thingRootKey } from './keys.ts';

export const getThings = (params: Partial<TableParams> & ThingFilters, silent = false) =>
  http.get<PageOf<ThingListItem>>('/api/thing/things', { ...params }, { silent });

export const createThing = (input: ThingInput) => http.post<Thing>('/api/thing/things', input);

export const updateThing = (id: number, input: ThingInput) =>
  http.put<Thing>(`/api/thing/things/${id}`, input);

export const deleteThing = (id: number) => http.delete<void>(`/api/thing/things/${id}`);

/** Things whose name matches, for pickers (first 20). */
export const useThingSearch = (name: string) =>
  useQuery({
    queryKey: thingKeys.search(name),
    queryFn: () => getThings({ page: 1, pageSize: 20, name }, true),
    select: (page) => page.list,
  });

// ---- abilities ----------------------------------------------------------------------------------

export const getThingAbilities = (thingId: number) =>
  http.get<EffectiveAbility[]>(`/api/thing/things/${thingId}/abilities`, undefined, { silent: true });

/** Removes inherited abilities from a thing; `ids` are category ability ids. */
export const removeThingAbilities = (thingId: number, ids: readonly number[]) =>
  http.delete<void>(`/api/thing/things/${thingId}/abilities`, { ids: ids.join(',') });

export const useThingAbilities = (thingId: number | null) =>
  useQuery({
    queryKey: thingKeys.abilities(thingId ?? 0),
    queryFn: () => getThingAbilities(thingId!),
    enabled: thingId != null,
  });

export function useRemoveThingAbilities(thingId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: readonly number[]) => removeThingAbilities(thingId, ids),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: thingKeys.abilities(thingId) }),
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
    queryKey: thingKeys.token(thingId ?? 0),
    queryFn: () => getThingToken(thingId!),
    enabled: thingId != null,
    // A secret: fetched when the dialog opens, not kept around afterwards.
    gcTime: 0,
  });

export function useRegenerateThingToken(thingId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => regenerateThingToken(thingId),
    onSuccess: (token) => queryClient.setQueryData(thingKeys.token(thingId), token),
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

export function useImportThings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importThings,
    // New things change the models' thing counts too.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: thingRootKey }),
  });
}
