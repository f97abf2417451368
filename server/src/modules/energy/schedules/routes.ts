import {
  reportScheduleCreate,
  reportScheduleDelete,
  reportScheduleList,
  reportScheduleRuns,
  reportScheduleSend,
  reportScheduleUpdate,
} from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../../plugins/route.ts';
import type { ReportSchedules } from './service.ts';

/** Like the reports' writes: a grant of the KPI screen (docs/permissions.md). */
const KPI = { config: { resource: '/analysis/kpi' } };

/**
 * Scheduled reports (docs/report-schedules.md). Every call needs the KPI grant, reads too: like the
 * alarm centre's notification routes, schedules hold people's addresses, and "send now" mails them.
 */
export const reportScheduleRoutes: FastifyPluginAsync<{ schedules: ReportSchedules }> = async (
  app,
  { schedules },
) => {
  route(app, reportScheduleList, KPI, async (request) => schedules.list(request.params.id));
  route(app, reportScheduleCreate, KPI, async (request) => schedules.create(request.params.id, request.body));
  route(app, reportScheduleUpdate, KPI, async (request) => schedules.update(request.params.id, request.body));
  route(app, reportScheduleDelete, KPI, async (request) => {
    await schedules.remove(request.params.id);
    return { ok: true as const };
  });
  route(app, reportScheduleRuns, KPI, async (request) => schedules.runs(request.params.id));
  route(app, reportScheduleSend, KPI, async (request) => schedules.sendNow(request.params.id));
};
