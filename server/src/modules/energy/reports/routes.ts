import {
  type PlantCalendar,
  ROLE_ADMIN,
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
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { pickLanguage } from '../../../i18n/index.ts';
import { route } from '../../../plugins/route.ts';
import { requireUser } from '../../auth/index.ts';
import type { QueryService } from '../../query/index.ts';
import { reportWorkbook } from './output.ts';
import type { Actor, ReportsService } from './service.ts';

/** Writes need a grant of the KPI screen; reading and exporting are every user's (docs/permissions.md). */
const KPI = { config: { resource: '/analysis/kpi' } };

/** The period in the export's file name. */
const FILE_DATE = { day: 'YYYY-MM-DD', month: 'YYYY-MM', year: 'YYYY' } as const;

const actorOf = (request: FastifyRequest): Actor => {
  const user = requireUser(request);
  return { id: user.id, admin: user.roles.includes(ROLE_ADMIN) };
};

/** /api/reports (spec §7) and the report export /api/statistics/report/output. */
export const reportRoutes: FastifyPluginAsync<{
  service: ReportsService;
  query: Pick<QueryService, 'data'>;
  /** The plant calendar (PLANT_TIMEZONE): the report's period. */
  calendar: PlantCalendar;
  now: () => number;
  /** The plant's name said above each sheet's table (its first root region); null without one. */
  plant?: () => Promise<string | null>;
}> = async (app, { service, query, calendar, now, plant }) => {
  route(app, reportTree, {}, async () => service.tree());

  route(app, reportCreateChild, KPI, async (request) => service.createChild(request.params.id, request.body));

  route(app, reportPatch, KPI, async (request) =>
    service.patch(request.params.id, request.body, actorOf(request)),
  );

  route(app, reportDelete, KPI, async (request) => ({
    ok: true as const,
    deleted: await service.remove(request.params.id, actorOf(request)),
  }));

  route(app, reportPublish, KPI, async (request) =>
    service.publish(request.params.id, request.body.published ?? true, actorOf(request)),
  );

  route(app, reportComponentList, {}, async (request) =>
    service.components(request.params.id, request.query.categoryId),
  );

  route(app, reportComponentCreate, KPI, async (request) =>
    service.addComponent(request.params.id, request.body, actorOf(request)),
  );

  route(app, reportComponentLayouts, KPI, async (request) =>
    service.saveLayouts(request.params.id, request.body, actorOf(request)),
  );

  route(app, reportComponentPatch, KPI, async (request) =>
    service.patchComponent(
      request.params.reportId,
      request.params.componentId,
      request.body,
      actorOf(request),
    ),
  );

  route(app, reportComponentDelete, KPI, async (request) => {
    await service.removeComponent(request.params.reportId, request.params.componentId, actorOf(request));
    return { ok: true as const };
  });

  route(app, reportOutput, { config: { heavy: true } }, async (request, reply) => {
    const { reportId, period } = request.body;
    const report = await service.reportWithComponents(reportId);
    const time = request.body.time ?? now();
    const body = await reportWorkbook({
      ...report,
      period,
      time,
      language: pickLanguage(request.headers['accept-language']),
      calendar,
      timeZone: calendar.timeZone,
      ask: (q) => query.data(q, null),
      plant: plant ? await plant() : null,
    });
    const filename = `${report.name}-${calendar.format(time, FILE_DATE[period])}.xlsx`;
    return reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header(
        'content-disposition',
        `attachment; filename="report.xlsx"; filename*=UTF-8''${encodeURIComponent(filename)}`,
      )
      .send(body);
  });
};
