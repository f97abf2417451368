import {
  type ReportChildInput,
  type ReportComponentInput,
  type ReportComponentPatch,
  type ReportLayouts,
  type ReportOutputInput,
  type ReportPatch,
  reportComponentCreate,
  reportComponentDelete,
  reportComponentLayouts,
  reportComponentList,
  reportComponentPatch,
  reportCreateChild,
  reportDelete,
  reportOutput,
  reportPatch,
  reportPublish,
  reportTree,
} from '@kilowatch/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../lib/call.ts';
import { postForBlob } from '../lib/http.ts';
import { keys } from './keys.ts';

/**
 * KPI reports (/api/reports, spec §7): the folder tree and each report's components. Every write
 * refreshes `keys.reports.all` (names, publication and components show in the tree and the grid).
 */

const reportTreeQuery = () =>
  queryOptions({ queryKey: keys.reports.tree(), queryFn: () => call(reportTree, { silent: true }) });

export const useReportTree = () => useQuery(reportTreeQuery());

export const useReportComponents = (reportId: number | null) =>
  useQuery({
    queryKey: keys.reports.components(reportId ?? 0),
    queryFn: () => call(reportComponentList, { params: { id: reportId! }, query: {}, silent: true }),
    enabled: reportId != null,
  });

function useReportMutation<V, R>(fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.reports.all }),
  });
}

/** `parentId` 0 creates at the top level. */
export const useCreateReportNode = () =>
  useReportMutation(({ parentId, input }: { parentId: number; input: ReportChildInput }) =>
    call(reportCreateChild, { params: { id: parentId }, body: input }),
  );

export const usePatchReportNode = () =>
  useReportMutation(({ id, patch }: { id: number; patch: ReportPatch }) =>
    call(reportPatch, { params: { id }, body: patch }),
  );

export const useDeleteReportNode = () =>
  useReportMutation((id: number) => call(reportDelete, { params: { id } }));

export const usePublishReport = () =>
  useReportMutation(({ id, published }: { id: number; published: boolean }) =>
    call(reportPublish, { params: { id }, body: { published } }),
  );

export const useCreateComponent = () =>
  useReportMutation(({ reportId, input }: { reportId: number; input: ReportComponentInput }) =>
    call(reportComponentCreate, { params: { id: reportId }, body: input }),
  );

export const usePatchComponent = () =>
  useReportMutation(
    ({
      reportId,
      componentId,
      patch,
    }: {
      reportId: number;
      componentId: number;
      patch: ReportComponentPatch;
    }) => call(reportComponentPatch, { params: { reportId, componentId }, body: patch, silent: true }),
  );

/** The grid after a drag or resize; silent, it follows the user's hand. */
export const useSaveLayouts = () =>
  useReportMutation(({ reportId, layouts }: { reportId: number; layouts: ReportLayouts }) =>
    call(reportComponentLayouts, { params: { id: reportId }, body: layouts, silent: true }),
  );

export const useDeleteComponent = () =>
  useReportMutation(({ reportId, componentId }: { reportId: number; componentId: number }) =>
    call(reportComponentDelete, { params: { reportId, componentId } }),
  );

/** POST /api/statistics/report/output: the report over a period as an xlsx file. */
export const exportReport = (input: ReportOutputInput) => postForBlob(reportOutput.path, input);
