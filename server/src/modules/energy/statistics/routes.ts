import {
  type ErpConfig,
  EXPORT_MAX_CELLS,
  type PlantCalendar,
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
import { AppError } from '../../../errors.ts';
import { type MessageKey, translate } from '../../../i18n/index.ts';

import { languageOf } from '../../../plugins/error-handler.ts';
import { route } from '../../../plugins/route.ts';
import { authorize, requireUser } from '../../auth/index.ts';
import type { TariffService } from '../bills/service.ts';
import type { StatisticsConfigs } from './config.ts';
import { erpChunks } from './erp-cost.ts';
import { type CostBasis, erpExport, fileName, standardExport, standardRows } from './exports.ts';
import { sendStream } from './send-stream.ts';
import type { StatisticsService } from './service.ts';

/** The statistics screen: writing the plant's config needs its grant. */
const SCREEN = '/analysis/report';

/** Reads and exports take a heavy request's slot (plugins/heavy-work.ts). */
const HEAVY = { config: { heavy: true } };

/** Things read and priced per ERP chunk, at most. */
const ERP_CHUNK = 100;
/**
 * Values (things × buckets) read per ERP chunk: a chunk is read and priced in one pass of the
 * event loop, so a long range reads fewer things at a time (at least one).
 */
const ERP_CHUNK_CELLS = 20_000;

/** /api/statistics (docs/statistics.md). Reading and exporting is open to every logged-in user. */
export const statisticsRoutes: FastifyPluginAsync<{
  service: StatisticsService;
  configs: StatisticsConfigs;
  erpConfig: () => Promise<ErpConfig>;
  tariffs: Pick<TariffService, 'get' | 'costByPeriod'>;
  /** The plant calendar: the files' names, periods and times. */
  calendar: PlantCalendar;
}> = async (app, { service, configs, erpConfig, tariffs, calendar }) => {
  route(app, statisticsConfigGet, {}, async (request) => configs.get(requireUser(request).id, request.query));

  route(app, statisticsConfigSave, {}, async (request) => {
    const user = requireUser(request);
    if (request.body.scope === 'plant' && !authorize(user, { resource: SCREEN })) {
      throw new AppError('FORBIDDEN', 403);
    }
    return configs.save(user.id, request.body);
  });

  route(app, statisticsRange, HEAVY, async (request) =>
    service.range(request.body, await configs.circle(requireUser(request).id)),
  );

  route(app, statisticsOutput, HEAVY, async (request, reply) => {
    const body: StatisticsExport = request.body;
    const format = body.format ?? 'xlsx';
    // At most MAX_STATISTICS_SERIES rows: read whole (the header needs every period), written as a stream.
    const result = await service.range({ ...body, circle: false });
    const language = languageOf(request);
    return sendStream(
      request,
      reply,
      { format, filename: fileName('statistics', result, format, calendar), rows: standardRows(result) },
      (out) => standardExport(result, (key) => translate(language, key), out, calendar),
    );
  });

  route(app, statisticsErpXlsx, HEAVY, async (request, reply) => {
    const body: StatisticsExport = request.body;
    const format = body.format ?? 'xlsx';
    const language = languageOf(request);
    const t = (key: MessageKey, params?: Record<string, string | number>) => translate(language, key, params);
    const config = await erpConfig();
    const things = await service.thingsOf(body);
    const buckets = service.bucketsOf(body);
    const rows = 1 + things.length * buckets;
    const columns = config.columns.length;
    if (rows * columns > EXPORT_MAX_CELLS) {
      throw new AppError(
        'BAD_REQUEST',
        400,
        { rows, columns, max: EXPORT_MAX_CELLS },
        { message: 'export.tooManyCells' },
      );
    }
    const size = Math.max(1, Math.min(ERP_CHUNK, Math.floor(ERP_CHUNK_CELLS / buckets)));
    const read = (list: readonly Thing[]): Promise<StatisticsResult> =>
      service.range({ ...body, resourceType: 'thing', resourceIds: list.map((x) => x.id), circle: false });
    const { first, chunks, notes } = await erpChunks({ things, config, read, tariffs, size, t }, calendar);
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
        filename: fileName('erp', first, format, calendar),
        rows: 1 + things.length * first.keys.length,
      },
      (out) =>
        erpExport(
          chunks,
          config,
          { basis: (b) => t(basis[b]), title: t('export.info'), rows: notes },
          out,
          calendar,
        ),
    );
  });
};
