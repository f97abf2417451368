import multipart from '@fastify/multipart';
import {
  categoryAbilityCreate,
  categoryAbilityDelete,
  categoryAbilityList,
  categoryAbilityUpdateMany,
  categoryCreate,
  categoryDelete,
  categoryList,
  categoryUpdate,
  IMPORT_MAX_BYTES,
  modelAbilityList,
  modelAbilityPatch,
  modelCreate,
  modelDelete,
  modelList,
  modelUpdate,
  thingAbilityList,
  thingAbilityRemove,
  thingCreate,
  thingDelete,
  thingGet,
  thingImport,
  thingImportTemplate,
  thingList,
  thingTokenGet,
  thingTokenRegenerate,
  thingUpdate,
} from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors.ts';
import { pickLanguage, translate } from '../../i18n/index.ts';
import { route } from '../../plugins/route.ts';
import { parseIdList } from '../../shared/ids.ts';
import { buildImportTemplate, formatOf, inTurns } from './import/index.ts';
import { ImportRejected, type ThingsService } from './service/index.ts';

const ok = { ok: true as const };

/** The console screen whose grant each write needs (spec §2 device management routes). */
const CATEGORY = { config: { resource: '/device_management/category' } };
const MODEL = { config: { resource: '/device_management/model' } };
const NODES = { config: { resource: '/device_management/nodes' } };

/** `ids=1,2` or `ids=1&ids=2` → [1, 2]; 400 for anything but plain decimal ids. */
const parseIds = (ids: string | string[]): number[] => {
  const parsed = parseIdList(ids);
  if (!parsed) throw new AppError('VALIDATION', 400, {}, { message: 'things.badIds' });
  return parsed;
};

/**
 * /api/thing: categories and their abilities, models and their overrides, things with their
 * abilities, access tokens and bulk import (spec §7 "Device management"). Reads are open to
 * every logged-in user; writes need the grant of the screen that makes them.
 */
export const thingsRoutes: FastifyPluginAsync<{ service: ThingsService }> = async (app, { service }) => {
  await app.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 10 } });

  // ---- categories ----

  route(app, categoryList, {}, async (request) => service.listCategories(request.query));
  route(app, categoryCreate, CATEGORY, async (request) => service.createCategory(request.body));
  route(app, categoryUpdate, CATEGORY, async (request) =>
    service.updateCategory(request.params.id, request.body),
  );
  route(app, categoryDelete, CATEGORY, async (request) => {
    await service.deleteCategory(request.params.id);
    return ok;
  });
  route(app, categoryAbilityList, {}, async (request) =>
    service.categoryAbilities(request.params.categoryId),
  );
  route(app, categoryAbilityCreate, CATEGORY, async (request) =>
    service.createCategoryAbility(request.params.categoryId, request.body),
  );
  route(app, categoryAbilityUpdateMany, CATEGORY, async (request) =>
    service.patchCategoryAbilities(request.params.categoryId, request.body),
  );
  route(app, categoryAbilityDelete, CATEGORY, async (request) => {
    await service.deleteCategoryAbility(request.params.id);
    return ok;
  });

  // ---- models ----

  route(app, modelList, {}, async (request) => service.listModels(request.query));
  route(app, modelCreate, MODEL, async (request) => service.createModel(request.body));
  route(app, modelUpdate, MODEL, async (request) => service.updateModel(request.params.id, request.body));
  route(app, modelDelete, MODEL, async (request) => {
    await service.deleteModel(request.params.id);
    return ok;
  });
  route(app, modelAbilityList, {}, async (request) => service.modelAbilities(request.params.id));
  route(app, modelAbilityPatch, MODEL, async (request) =>
    service.patchModelAbility(request.params.abilityId, request.body),
  );

  // ---- things ----

  route(app, thingList, {}, async (request) => service.listThingsWithPresence(request.query));

  route(app, thingImportTemplate, NODES, async (request, reply) => {
    const language = pickLanguage(request.headers['accept-language']);
    const file = await buildImportTemplate(
      request.query.format ?? 'xlsx',
      language,
      await service.modelNames(),
      await service.regionPaths(),
    );
    return (
      reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        // The 200 schema only documents the binary body; a Buffer is sent as it is.
        .send(file.body)
    );
  });

  route(app, thingImport, { config: { ...NODES.config, heavy: true } }, async (request, reply) => {
    if (!request.isMultipart()) throw new AppError('BAD_REQUEST', 400, {}, { message: 'import.noFile' });
    const file = await request.file();
    if (file?.fieldname !== 'file') {
      throw new AppError('BAD_REQUEST', 400, {}, { message: 'import.noFile' });
    }
    const format = formatOf(file.filename);
    if (!format) {
      file.file.resume();
      throw new AppError('BAD_REQUEST', 400, {}, { message: 'import.badType' });
    }
    const tooLarge = () =>
      new AppError(
        'BAD_REQUEST',
        413,
        { mb: IMPORT_MAX_BYTES / 1024 / 1024 },
        { message: 'import.tooLarge' },
      );
    try {
      // Read as it arrives: the size limit cuts the stream (truncated), the row limits stop reading.
      const result = await service.importThings(file.file, format);
      if (file.file.truncated) throw tooLarge();
      return result;
    } catch (error) {
      // A cut-off file fails to parse or looks short: what the user needs to hear is its size.
      if (file.file.truncated) throw tooLarge();
      if (!(error instanceof ImportRejected)) throw error;
      const language = pickLanguage(request.headers['accept-language']);
      return reply.status(422).send({
        code: 'UNPROCESSABLE',
        message: translate(language, 'import.failed', { count: error.problems.length }),
        errors: await inTurns(error.problems, (p) => {
          const column = p.missing ? translate(language, `import.col.${p.missing}`) : p.column;
          return {
            row: p.row,
            column,
            message: translate(language, p.message, p.missing ? { column } : p.params),
          };
        }),
      });
    }
  });

  route(app, thingGet, {}, async (request) => service.getThing(request.params.id));
  route(app, thingCreate, NODES, async (request) => service.createThing(request.body));
  route(app, thingUpdate, NODES, async (request) => service.updateThing(request.params.id, request.body));
  route(app, thingDelete, NODES, async (request) => {
    await service.deleteThing(request.params.id);
    return ok;
  });
  route(app, thingAbilityList, {}, async (request) => service.thingAbilities(request.params.id));
  route(app, thingAbilityRemove, NODES, async (request) =>
    service.removeThingAbilities(request.params.id, parseIds(request.query.ids)),
  );
  route(app, thingTokenGet, NODES, async (request) => service.thingToken(request.params.id));
  route(app, thingTokenRegenerate, NODES, async (request) => service.regenerateThingToken(request.params.id));
};
