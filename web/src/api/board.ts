import {
  type BoardComponentInput,
  type BoardComponentPatch,
  type BoardLayouts,
  type BoardPageInput,
  type BoardPagePatch,
  boardComponentCreate,
  boardComponentDelete,
  boardComponentLayouts,
  boardComponentPatch,
  boardPageComponents,
  boardPageCreate,
  boardPageDelete,
  boardPageList,
  boardPagePatch,
  boardPageWeight,
} from '@kilowatch/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../lib/call.ts';
import { keys } from './keys.ts';
import { fetchCabinets } from './realtime.ts';

/**
 * The workshop board (/api/board/pages, spec §7): pages in display order and each page's
 * components. Every write refreshes `keys.board.all`.
 */

/** How often a playing board looks for edited pages (docs/board.md: edits reach the TV within this). */
export const BOARD_PAGES_REFRESH_MS = 30_000;
/** How often device tiles poll their cabinets (live values arrive in between over SSE). */
const BOARD_CABINETS_REFRESH_MS = 10_000;

export const useBoardPages = (refetchInterval?: number) =>
  useQuery({
    queryKey: keys.board.pages(),
    queryFn: () => call(boardPageList, { silent: true }),
    ...(refetchInterval ? { refetchInterval } : {}),
  });

export const useBoardComponents = (pageId: number | null, refetchInterval?: number) =>
  useQuery({
    queryKey: keys.board.components(pageId ?? 0),
    queryFn: () => call(boardPageComponents, { params: { id: pageId! }, silent: true }),
    enabled: pageId != null,
    ...(refetchInterval ? { refetchInterval } : {}),
  });

/** GET /api/board/components/{regionId}: a region's device cabinets with their latest values. */
export const useRegionCabinets = (regionId: number, categoryId: number | null, successor: boolean) =>
  useQuery({
    queryKey: [...keys.telemetry.all, 'cabinets', regionId, categoryId, successor] as const,
    queryFn: ({ signal }) => fetchCabinets(regionId, categoryId, signal, successor),
    refetchInterval: BOARD_CABINETS_REFRESH_MS,
  });

function useBoardMutation<V, R>(fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.board.all }),
  });
}

export const useCreateBoardPage = () =>
  useBoardMutation((input: BoardPageInput) => call(boardPageCreate, { body: input }));

export const usePatchBoardPage = () =>
  useBoardMutation(({ id, patch }: { id: number; patch: BoardPagePatch }) =>
    call(boardPagePatch, { params: { id }, body: patch }),
  );

/** PATCH …/weight: answers every page in the new order, written to the cache at once. */
export const useBoardPageWeight = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, weight }: { id: number; weight: number }) =>
      call(boardPageWeight, { params: { id }, body: { weight }, silent: true }),
    onSuccess: (pages) => queryClient.setQueryData(keys.board.pages(), pages),
  });
};

export const useDeleteBoardPage = () =>
  useBoardMutation((id: number) => call(boardPageDelete, { params: { id } }));

export const useCreateBoardComponent = () =>
  useBoardMutation(({ pageId, input }: { pageId: number; input: BoardComponentInput }) =>
    call(boardComponentCreate, { params: { id: pageId }, body: input }),
  );

export const usePatchBoardComponent = () =>
  useBoardMutation(
    ({ pageId, componentId, patch }: { pageId: number; componentId: number; patch: BoardComponentPatch }) =>
      call(boardComponentPatch, { params: { pageId, componentId }, body: patch, silent: true }),
  );

/** The grid after a drag or resize; silent, it follows the user's hand. */
export const useSaveBoardLayouts = () =>
  useBoardMutation(({ pageId, layouts }: { pageId: number; layouts: BoardLayouts }) =>
    call(boardComponentLayouts, { params: { id: pageId }, body: layouts, silent: true }),
  );

export const useDeleteBoardComponent = () =>
  useBoardMutation(({ pageId, componentId }: { pageId: number; componentId: number }) =>
    call(boardComponentDelete, { params: { pageId, componentId } }),
  );
