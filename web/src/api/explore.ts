import {
  type ExploreViewCreate,
  type ExploreViewPatch,
  exploreViewCreate,
  exploreViewDelete,
  exploreViewList,
  exploreViewPatch,
} from '@kilowatch/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../lib/call.ts';
import { keys } from './keys.ts';

/** The caller's saved Explore views (/api/explore/views, docs/explore.md). */

export const useExploreViews = () =>
  useQuery({ queryKey: keys.explore.views(), queryFn: () => call(exploreViewList, { silent: true }) });

function useViewMutation<V, R>(fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.explore.all }),
  });
}

export const useCreateExploreView = () =>
  useViewMutation((body: ExploreViewCreate) => call(exploreViewCreate, { body }));

export const useUpdateExploreView = () =>
  useViewMutation(({ id, body }: { id: number; body: ExploreViewPatch }) =>
    call(exploreViewPatch, { params: { id }, body }),
  );

export const useDeleteExploreView = () =>
  useViewMutation((id: number) => call(exploreViewDelete, { params: { id } }));
