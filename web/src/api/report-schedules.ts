import {
  type ReportScheduleInput,
  reportScheduleCreate,
  reportScheduleDelete,
  reportScheduleList,
  reportScheduleRuns,
  reportScheduleSend,
  reportScheduleUpdate,
} from '@kilowatch/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../lib/call.ts';
import { keys } from './keys.ts';

/**
 * Scheduled reports (docs/report-schedules.md): a report's schedules and their runs, under the
 * reports' cache root, so every write (a send now adds a run and changes the last one) refreshes both.
 */

export const useReportSchedules = (reportId: number, enabled = true) =>
  useQuery({
    queryKey: keys.reports.schedules(reportId),
    queryFn: () => call(reportScheduleList, { params: { id: reportId }, silent: true }),
    enabled,
  });

export const useScheduleRuns = (scheduleId: number) =>
  useQuery({
    queryKey: keys.reports.scheduleRuns(scheduleId),
    queryFn: () => call(reportScheduleRuns, { params: { id: scheduleId }, silent: true }),
  });

function useScheduleMutation<V, R>(fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.reports.all }),
  });
}

/** Silent: the form shows why a save failed, beside the fields. */
export const useCreateSchedule = () =>
  useScheduleMutation(({ reportId, input }: { reportId: number; input: ReportScheduleInput }) =>
    call(reportScheduleCreate, { params: { id: reportId }, body: input, silent: true }),
  );

export const useUpdateSchedule = () =>
  useScheduleMutation(({ id, input }: { id: number; input: ReportScheduleInput }) =>
    call(reportScheduleUpdate, { params: { id }, body: input, silent: true }),
  );

export const useDeleteSchedule = () =>
  useScheduleMutation((id: number) => call(reportScheduleDelete, { params: { id } }));

/** Builds and mails the last full period now; answers the run (a failure is a run, not an error). */
export const useSendSchedule = () =>
  useScheduleMutation((id: number) => call(reportScheduleSend, { params: { id } }));
