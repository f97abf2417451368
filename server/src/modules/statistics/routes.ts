import {
  type ErpConfig,
  type StatisticsExport,
  type StatisticsResult,
  statisticsConfigGet,
  statisticsConfigSave,
  statisticsErpXlsx,
  statisticsOutput,
  statisticsRange,
  type Thing,
} from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors.ts';
import { type MessageKey, translate } from '../../i18n/index.ts';
import { authorize } from '../../plugins/authenticate.ts';
import { languageOf } from '../../plugins/error-handler.ts';
import { route } from '../../plugins/route.ts';
import { requireUser } from '../auth/index.ts';
import type { TariffService } from '../tariffs/index.ts';
import type { StatisticsConfigs } from './config.ts';
import { erpChunks } from './erp-cost.ts';
import { type CostBasis, erpExport, fileName, standardExport, standardRows } from './exports.ts';
import { sendStream } from './send-stream.ts';
import type { StatisticsService } from './service.ts';

/** The statistics screen: writing the plant's config needs its grant. */
const SCREEN = '/analysis/report';

/** Things read and priced per ERP chunk: a chunk's rows are a few thousand, whatever the total. */
export const ERP_CHUNK = 100;

/** /api/statistics (docs/statistics.md). Reading and exporting is open to every logged-in user. */
export const statisticsRoutes: FastifyPluginAsync<{
  service: StatisticsService;
  configs: StatisticsConfigs;
  erpConfig: () => Promise<ErpConfig>;
  tariffs: Pick<TariffService, 'get' | 'costByPeriod'>;
}> = async (app, { service, configs, erpConfig, tariffs }) => {
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
    const format = body.format ?? 'xlsx';
    // At most MAX_STATISTICS_SERIES rows: read whole (the header needs every period), written as a stream.
    const result = await service.range({ ...body, circle: false });
    const language = languageOf(request);
    return sendStream(
      request,
      reply,
      { format, filename: fileName('statistics', result, format), rows: standardRows(result) },
      (out) => standardExport(result, (key) => translate(language, key), out),
    );
  });

  route(app, statisticsErpXlsx, {}, async (request, reply) => {
    const body: StatisticsExport = request.body;
    const format = body.format ?? 'xlsx';
    const language = languageOf(request);
    const t = (key: MessageKey, params?: Record<string, string | number>) => translate(language, key, params);
    const config = await erpConfig();
    const things = await service.thingsOf(body);
    const read = (list: readonly Thing[]): Promise<StatisticsResult> =>
      service.range({ ...body, resourceType: 'thing', resourceIds: list.map((x) => x.id), circle: false });
    const { first, chunks, notes } = await erpChunks({ things, config, read, tariffs, size: ERP_CHUNK, t });
    const basis: Record<CostBasis, MessageKey> = {
      tariff: 'export.basisTariff',
      flat: 'export.basisFlat',
      mixed: 'export.basisMixed',
    };
    return sendStream(
      request,
      reply,
      {
        format,
        filename: fileName('erp', first, format),
        rows: 1 + things.length * first.keys.length,
      },
      (out) =>
        erpExport(chunks, config, { basis: (b) => t(basis[b]), title: t('export.info'), rows: notes }, out),
    );
  });
};
