import {
  enpiAbilities,
  enpiCreate,
  enpiDelete,
  enpiGet,
  enpiList,
  enpiOutputDelete,
  enpiOutputList,
  enpiOutputPut,
  enpiReport,
  enpiUpdate,
} from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { translate } from '../../../i18n/index.ts';
import { languageOf } from '../../../plugins/error-handler.ts';
import { route } from '../../../plugins/route.ts';
import type { EnpiService } from './service.ts';

/** Where the console edits EnPI definitions and their outputs: writes need it (docs/permissions.md). */
const ENPI_RESOURCE = '/analysis/enpi';

/**
 * /api/enpi: definitions, entered outputs and the report. Reading is open to every logged-in
 * user, as the other energy reads are; writing needs admin or a role granting the EnPI screen.
 */
export const enpiRoutes: FastifyPluginAsync<{ service: EnpiService }> = async (app, { service }) => {
  const guarded = { config: { resource: ENPI_RESOURCE } };

  route(app, enpiList, {}, async () => service.list());
  route(app, enpiAbilities, {}, async (request) => service.abilities(request.query));
  route(app, enpiGet, {}, async (request) => service.get(request.params.id));
  route(app, enpiCreate, guarded, async (request) => service.create(request.body));
  route(app, enpiUpdate, guarded, async (request) => service.update(request.params.id, request.body));
  route(app, enpiDelete, guarded, async (request) => {
    await service.remove(request.params.id);
    return { ok: true as const };
  });
  route(app, enpiOutputList, {}, async (request) => service.outputs(request.params.id));
  route(app, enpiOutputPut, guarded, async (request) =>
    service.putOutput(request.params.id, { period: request.params.period, value: request.body.value }),
  );
  route(app, enpiOutputDelete, guarded, async (request) => {
    await service.removeOutput(request.params.id, request.params.period);
    return { ok: true as const };
  });
  route(app, enpiReport, {}, async (request) => {
    const language = languageOf(request);
    return service.report(request.params.id, request.query, (key, params) =>
      translate(language, key, params),
    );
  });
};
