import {
  type ErpConfig,
  type StatisticsExport,
  statisticsConfigGet,
  statisticsConfigSave,
  statisticsErpXlsx,
  statisticsOutput,
  statisticsRange,
} from '@kilowatch/contract';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { AppError } from '../../errors.ts';
import { translate } from '../../i18n/index.ts';
import { authorize } from '../../plugins/authenticate.ts';
import { languageOf } from '../../plugins/error-handler.ts';
import { route } from '../../plugins/route.ts';
import { requireUser } from '../auth/index.ts';
import type { StatisticsConfigs } from './config.ts';
import { type ExportFile, erpExport, standardExport } from './exports.ts';
import type { StatisticsService } from './service.ts';

/** The statistics screen: writing the plant's config needs its grant. */
const SCREEN = '/analysis/report';

const send = (reply: FastifyReply, file: ExportFile) =>
  reply
    .header('content-type', file.contentType)
    .header(
      'content-disposition',
      `attachment; filename="${file.filename.replace(/[^\w.-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
    )
    .send(file.body);

/** /api/statistics (docs/statistics.md). Reading and exporting is open to every logged-in user. */
export const statisticsRoutes: FastifyPluginAsync<{
  service: StatisticsService;
  configs: StatisticsConfigs;
  erpConfig: () => Promise<ErpConfig>;
}> = async (app, { service, configs, erpConfig }) => {
  route(app, statisticsConfigGet, {}, async (request) => configs.get(requireUser(request).id, request.query));

  route(app, statisticsConfigSave, {}, async (request) => {
    const user = requireUser(request);
    if (request.body.scope === 'plant' && !authorize(user, { resource: SCREEN })) {
      throw new AppError('FORBIDDEN', 403);
    }
    return configs.save(user.id, request.body);
  });

  route(app, statisticsRange, {}, async (request) =>
    service.range(request.body, await configs.circle(requireUser(request).id)),
  );

  route(app, statisticsOutput, {}, async (request, reply) => {
    const body: StatisticsExport = request.body;
    const result = await service.range({ ...body, circle: false });
    const language = languageOf(request);
    return send(
      reply,
      await standardExport(result, (key) => translate(language, key), body.format ?? 'xlsx'),
    );
  });

  route(app, statisticsErpXlsx, {}, async (request, reply) => {
    const body: StatisticsExport = request.body;
    const things = await service.thingsOf(body);
    const result = await service.range({
      ...body,
      resourceType: 'thing',
      resourceIds: things,
      circle: false,
    });
    return send(reply, await erpExport(result, await erpConfig(), body.format ?? 'xlsx'));
  });
};
