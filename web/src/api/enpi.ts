import {
  type EnpiAbilitiesQuery,
  type EnpiInput,
  type EnpiReportQuery,
  enpiAbilities,
  enpiCreate,
  enpiDelete,
  enpiList,
  enpiOutputDelete,
  enpiOutputList,
  enpiOutputPut,
  enpiReport,
  enpiUpdate,
} from '@kilowatch/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../lib/call.ts';
import { keys } from './keys.ts';

/**
 * EnPI definitions, their entered outputs and reports (/api/enpi, docs/enpi.md). Every key sits
 * under `keys.enpi.all` and every write invalidates it: an entered output changes the report.
 */

export const useEnpis = () =>
  useQuery({ queryKey: keys.enpi.list(), queryFn: () => call(enpiList, { silent: true }) });

/** The numeric abilities of a source (thing, region, filter group) for the metric picker; idle without one. */
export const useEnpiAbilities = (source: EnpiAbilitiesQuery | null) =>
  useQuery({
    queryKey: keys.enpi.abilities(source?.resourceType ?? '', source?.resourceId ?? 0),
    queryFn: () => call(enpiAbilities, { query: source as EnpiAbilitiesQuery, silent: true }),
    enabled: source !== null,
  });

export const useEnpiOutputs = (id: number | null) =>
  useQuery({
    queryKey: keys.enpi.outputs(id ?? 0),
    queryFn: () => call(enpiOutputList, { params: { id: id as number }, silent: true }),
    enabled: id !== null,
  });

export const useEnpiReport = (id: number | null, query: EnpiReportQuery) =>
  useQuery({
    queryKey: keys.enpi.report(id ?? 0, query),
    queryFn: () => call(enpiReport, { params: { id: id as number }, query, silent: true }),
    enabled: id !== null,
    placeholderData: keepPreviousData,
  });

function useEnpiMutation<V, R>(fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.enpi.all }),
  });
}

export const useSaveEnpi = () =>
  useEnpiMutation(({ id, body }: { id: number | null; body: EnpiInput }) =>
    id === null ? call(enpiCreate, { body }) : call(enpiUpdate, { params: { id }, body }),
  );

export const useDeleteEnpi = () => useEnpiMutation((id: number) => call(enpiDelete, { params: { id } }));

export const usePutEnpiOutput = () =>
  useEnpiMutation(({ id, period, value }: { id: number; period: string; value: number }) =>
    call(enpiOutputPut, { params: { id, period }, body: { value } }),
  );

export const useDeleteEnpiOutput = () =>
  useEnpiMutation(({ id, period }: { id: number; period: string }) =>
    call(enpiOutputDelete, { params: { id, period } }),
  );
