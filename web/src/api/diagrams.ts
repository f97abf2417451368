import {
  type DiagramCreate,
  type DiagramPatch,
  diagramCreate,
  diagramDelete,
  diagramGet,
  diagramList,
  diagramPatch,
} from '@kilowatch/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../lib/call.ts';
import { keys } from './keys.ts';

/** Single-line diagrams (/api/diagrams, docs/electric-diagram.md). */

export const useDiagrams = () =>
  useQuery({ queryKey: keys.diagrams.list(), queryFn: () => call(diagramList, { silent: true }) });

export const useDiagram = (id: number | null) =>
  useQuery({
    queryKey: keys.diagrams.one(id ?? 0),
    queryFn: () => call(diagramGet, { params: { id: id! }, silent: true }),
    enabled: id !== null,
  });

function useDiagramMutation<V, R>(fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.diagrams.all }),
  });
}

export const useCreateDiagram = () =>
  useDiagramMutation((body: DiagramCreate) => call(diagramCreate, { body }));

export const useUpdateDiagram = () =>
  useDiagramMutation(({ id, body }: { id: number; body: DiagramPatch }) =>
    call(diagramPatch, { params: { id }, body }),
  );

export const useDeleteDiagram = () =>
  useDiagramMutation((id: number) => call(diagramDelete, { params: { id } }));
