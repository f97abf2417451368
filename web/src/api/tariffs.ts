import {
  type BillQuery,
  statisticsRangeTpfc,
  type TariffCreate,
  type TariffUpdate,
  type TariffVersionInput,
  type TpfcQuery,
  tariffBill,
  tariffCreate,
  tariffDelete,
  tariffList,
  tariffPlantGet,
  tariffPlantSet,
  tariffRegionList,
  tariffRegionsSet,
  tariffUpdate,
  tariffVersionCreate,
  tariffVersionDelete,
  tariffVersionUpdate,
} from '@kilowatch/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../lib/call.ts';
import { keys } from './keys.ts';

/**
 * Time-of-use tariffs (/api/tariffs), the cost by band (POST /api/statistics/range/TPFC) and the
 * monthly bill (docs/tariffs.md). Every key sits under `keys.tariffs.all` and every tariff write
 * invalidates it, so an open bill is priced again with the new version at once.
 */

export const useTariffs = () =>
  useQuery({ queryKey: keys.tariffs.list(), queryFn: () => call(tariffList, { silent: true }) });

function useTariffMutation<V, R>(fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.tariffs.all }),
  });
}

export const useCreateTariff = () => useTariffMutation((body: TariffCreate) => call(tariffCreate, { body }));

export const useUpdateTariff = () =>
  useTariffMutation(({ id, body }: { id: number; body: TariffUpdate }) =>
    call(tariffUpdate, { params: { id }, body }),
  );

export const useDeleteTariff = () =>
  useTariffMutation((id: number) => call(tariffDelete, { params: { id } }));

export const useSaveTariffVersion = () =>
  useTariffMutation(
    ({ id, versionId, body }: { id: number; versionId: number | null; body: TariffVersionInput }) =>
      versionId === null
        ? call(tariffVersionCreate, { params: { id }, body })
        : call(tariffVersionUpdate, { params: { id, versionId }, body }),
  );

export const useDeleteTariffVersion = () =>
  useTariffMutation(
    ({ id, versionId, retroactive }: { id: number; versionId: number; retroactive: boolean }) =>
      call(tariffVersionDelete, { params: { id, versionId }, query: { retroactive } }),
  );

export const useBill = (query: BillQuery | null) =>
  useQuery({
    queryKey: query ? keys.tariffs.bill(query) : keys.tariffs.bill({ idle: true }),
    queryFn: () => call(tariffBill, { body: query as BillQuery, silent: true }),
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });

export const useTpfc = (query: TpfcQuery | null) =>
  useQuery({
    queryKey: query ? keys.tariffs.tpfc(query) : keys.tariffs.tpfc({ idle: true }),
    queryFn: () => call(statisticsRangeTpfc, { body: query as TpfcQuery, silent: true }),
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });

/** The plant's tariff (GET /api/tariffs/plant): what the overview's cost and the ERP export price with. */
export const usePlantTariff = () =>
  useQuery({ queryKey: keys.tariffs.plant(), queryFn: () => call(tariffPlantGet, { silent: true }) });

/** Makes a tariff the plant's; the overview and the ERP settings read it, so they refresh too. */
export function useSetPlantTariff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tariffId: number | null) => call(tariffPlantSet, { body: { tariffId } }),
    onSuccess: () =>
      Promise.all(
        [keys.tariffs.all, keys.dashboard.all, keys.sysconfigs.all].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}

/** The regions priced with a tariff of their own (GET /api/tariffs/regions). */
export const useRegionTariffs = () =>
  useQuery({ queryKey: keys.tariffs.regions(), queryFn: () => call(tariffRegionList, { silent: true }) });

/** Makes a tariff exactly these regions' own; bills and the overview price with it, so they refresh. */
export function useSetTariffRegions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, regionIds }: { id: number; regionIds: number[] }) =>
      call(tariffRegionsSet, { params: { id }, body: { regionIds } }),
    onSuccess: () =>
      Promise.all(
        [keys.tariffs.all, keys.dashboard.all].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
  });
}
