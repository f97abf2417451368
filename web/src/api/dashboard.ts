import {
  dashboardMap,
  dashboardMapImage,
  dashboardMapImageDelete,
  dashboardMapUpload,
  dashboardOverview,
  type MapImage,
  type PlacementInput,
  type PlacementMove,
  placementCreate,
  placementDelete,
  placementMove,
} from '@kilowatch/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../lib/call.ts';
import { getBlob, upload } from '../lib/http.ts';
import { keys } from './keys.ts';

/**
 * The situation overview (/api/dashboard, docs/dashboard.md). Totals and the map's states are
 * polled; values between polls come over the live channel (api/live.ts). Every write invalidates
 * `keys.dashboard.all`.
 */

/** Totals and marker states: alarms and presence change at this pace, live values faster. */
const DASHBOARD_POLL_MS = 10_000;

export const useOverview = () =>
  useQuery({
    queryKey: keys.dashboard.overview(),
    queryFn: ({ signal }) => call(dashboardOverview, { silent: true, quiet: true, signal }),
    refetchInterval: DASHBOARD_POLL_MS,
    placeholderData: keepPreviousData,
  });

export const useSituationMap = () =>
  useQuery({
    queryKey: keys.dashboard.map(),
    queryFn: ({ signal }) => call(dashboardMap, { silent: true, quiet: true, signal }),
    refetchInterval: DASHBOARD_POLL_MS,
    placeholderData: keepPreviousData,
  });

/**
 * The layout image's bytes, once per version (an upload makes a new one). The blob stays in the
 * cache; the component that shows it makes and revokes its object URL.
 */
export const useMapImageBlob = (image: MapImage | null) =>
  useQuery({
    queryKey: keys.dashboard.image(image?.version ?? ''),
    queryFn: ({ signal }) => getBlob(dashboardMapImage.path, { silent: true, signal }),
    enabled: image !== null,
    staleTime: Number.POSITIVE_INFINITY,
    // Only the shown version is worth keeping: an old one leaves memory as soon as it is unused.
    gcTime: 0,
  });

function useDashboardMutation<V, R>(fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.dashboard.all }),
  });
}

export const useUploadMapImage = () =>
  useDashboardMutation((file: File) => upload<MapImage>(dashboardMapUpload.path, file));

export const useDeleteMapImage = () => useDashboardMutation(() => call(dashboardMapImageDelete));

export const usePlace = () => useDashboardMutation((body: PlacementInput) => call(placementCreate, { body }));

export const useMovePlacement = () =>
  useDashboardMutation(({ id, at }: { id: number; at: PlacementMove }) =>
    call(placementMove, { params: { id }, body: at }),
  );

export const useRemovePlacement = () =>
  useDashboardMutation((id: number) => call(placementDelete, { params: { id } }));
