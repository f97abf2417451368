import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Category,
  CategoryAbilitiesPatch,
  CategoryAbility,
  CategoryAbilityInput,
  CategoryInput,
  Data,
  EffectiveAbility,
  ErrorBody,
  IdParams,
  IMPORT_MAX_BYTES,
  ImportErrorBody,
  ImportResult,
  ImportTemplateQuery,
  Model,
  ModelAbilityPatch,
  ModelInput,
  ModelQuery,
  NameSearchQuery,
  Ok,
  Page,
  RowId,
  Thing,
  ThingAbilityIdsQuery,
  ThingInput,
  ThingListItem,
  ThingListQuery,
  ThingToken,
} from '@kilowatch/contract';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import { pickLanguage, translate } from '../../i18n/index.ts';
import { parseIdList } from '../../shared/ids.ts';
import { buildImportTemplate, formatOf, inTurns } from './import.ts';
import { ImportRejected, type ThingsService } from './service.ts';

const errors = { '4xx': ErrorBody, '5xx': ErrorBody };
const tags = ['things'];
const ok = { data: { ok: true as const } };

/** The console screen whose grant each write needs (spec §2 device management routes). */
const CATEGORY = { resource: '/device_management/category' };
const MODEL = { resource: '/device_management/model' };
const NODES = { resource: '/device_management/nodes' };

const CategoryIdParams = Type.Object({ categoryId: RowId });
const AbilityIdParams = Type.Object({ abilityId: RowId });

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
export const thingsRoutes: FastifyPluginAsyncTypebox<{ service: ThingsService }> = async (
  app,
  { service },
) => {
  await app.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 10 } });

  // ---- categories ----

  app.get(
    '/categories',
    {
      schema: {
        tags,
        summary: 'Categories, paged; `name` matches a substring of the name, ignoring case',
        querystring: NameSearchQuery,
        response: { 200: Data(Page(Category)), ...errors },
      },
    },
    async (request) => ({ data: await service.listCategories(request.query) }),
  );

  app.post(
    '/categories',
    {
      config: CATEGORY,
      schema: {
        tags,
        summary: 'Create a category (name unique, ignoring case)',
        body: CategoryInput,
        response: { 200: Data(Category), ...errors },
      },
    },
    async (request) => ({ data: await service.createCategory(request.body) }),
  );

  app.put(
    '/categories/:id',
    {
      config: CATEGORY,
      schema: {
        tags,
        summary: 'Rename or describe a category',
        params: IdParams,
        body: CategoryInput,
        response: { 200: Data(Category), ...errors },
      },
    },
    async (request) => ({ data: await service.updateCategory(request.params.id, request.body) }),
  );

  app.delete(
    '/categories/:id',
    {
      config: CATEGORY,
      schema: {
        tags,
        summary: 'Delete a category with its abilities; 409 naming the models while any use it',
        params: IdParams,
        response: { 200: Data(Ok), ...errors },
      },
    },
    async (request) => {
      await service.deleteCategory(request.params.id);
      return ok;
    },
  );

  app.get(
    '/categories/:categoryId/abilities',
    {
      schema: {
        tags,
        summary: 'The abilities (metrics and attributes) a category defines',
        params: CategoryIdParams,
        response: { 200: Data(Type.Array(CategoryAbility)), ...errors },
      },
    },
    async (request) => ({ data: await service.categoryAbilities(request.params.categoryId) }),
  );

  app.post(
    '/categories/:categoryId/abilities',
    {
      config: CATEGORY,
      schema: {
        tags,
        summary: 'Add an ability to a category; 409 when its identifier is taken in the category',
        description:
          'Defaults: unit "", dataType number, cumulative false, aggregator avg (sum for a cumulative counter), sort 0.',
        params: CategoryIdParams,
        body: CategoryAbilityInput,
        response: { 200: Data(CategoryAbility), ...errors },
      },
    },
    async (request) => ({
      data: await service.createCategoryAbility(request.params.categoryId, request.body),
    }),
  );

  app.patch(
    '/categories/abilities/:categoryId',
    {
      config: CATEGORY,
      schema: {
        tags,
        summary: "Update several of a category's abilities at once; returns all its abilities",
        description: 'All or nothing: 404 when an id is not an ability of this category.',
        params: CategoryIdParams,
        body: CategoryAbilitiesPatch,
        response: { 200: Data(Type.Array(CategoryAbility)), ...errors },
      },
    },
    async (request) => ({
      data: await service.patchCategoryAbilities(request.params.categoryId, request.body),
    }),
  );

  app.delete(
    '/categories/abilities/:id',
    {
      config: CATEGORY,
      schema: {
        tags,
        summary: "Delete a category ability with the models' overrides and things' removals of it",
        params: IdParams,
        response: { 200: Data(Ok), ...errors },
      },
    },
    async (request) => {
      await service.deleteCategoryAbility(request.params.id);
      return ok;
    },
  );

  // ---- models ----

  app.get(
    '/models',
    {
      schema: {
        tags,
        summary: 'Models, paged; filter by category and name substring',
        querystring: ModelQuery,
        response: { 200: Data(Page(Model)), ...errors },
      },
    },
    async (request) => ({ data: await service.listModels(request.query) }),
  );

  app.post(
    '/models',
    {
      config: MODEL,
      schema: {
        tags,
        summary: 'Create a model in a category (name unique within it); 422 if the category does not exist',
        body: ModelInput,
        response: { 200: Data(Model), ...errors },
      },
    },
    async (request) => ({ data: await service.createModel(request.body) }),
  );

  app.put(
    '/models/:id',
    {
      config: MODEL,
      schema: {
        tags,
        summary: 'Edit a model; moving it to another category drops its overrides',
        params: IdParams,
        body: ModelInput,
        response: { 200: Data(Model), ...errors },
      },
    },
    async (request) => ({ data: await service.updateModel(request.params.id, request.body) }),
  );

  app.delete(
    '/models/:id',
    {
      config: MODEL,
      schema: {
        tags,
        summary: 'Delete a model with its overrides; 409 naming the things while any use it',
        params: IdParams,
        response: { 200: Data(Ok), ...errors },
      },
    },
    async (request) => {
      await service.deleteModel(request.params.id);
      return ok;
    },
  );

  app.get(
    '/models/:id/abilities',
    {
      schema: {
        tags,
        summary: "A model's abilities: its category's, with the model's overrides applied",
        params: IdParams,
        response: { 200: Data(Type.Array(EffectiveAbility)), ...errors },
      },
    },
    async (request) => ({ data: await service.modelAbilities(request.params.id) }),
  );

  app.patch(
    '/models/abilities/:abilityId',
    {
      config: MODEL,
      schema: {
        tags,
        summary: 'Override (or with reset: true, stop overriding) one category ability for a model',
        description: 'abilityId is the category ability id; 404 when it is not of the model’s category.',
        params: AbilityIdParams,
        body: ModelAbilityPatch,
        response: { 200: Data(EffectiveAbility), ...errors },
      },
    },
    async (request) => ({ data: await service.patchModelAbility(request.params.abilityId, request.body) }),
  );

  // ---- things ----

  app.get(
    '/things',
    {
      schema: {
        tags,
        summary:
          'Things (devices), paged, with last seen time and presence; filter by category, model, name or identifier substring, and presence',
        description:
          'presence: online (a value within 5 minutes, or 3 of its usual intervals when slower), offline (older values), never (no value stored). See docs/devices.md.',
        querystring: ThingListQuery,
        response: { 200: Data(Page(ThingListItem)), ...errors },
      },
    },
    async (request) => ({ data: await service.listThingsWithPresence(request.query) }),
  );

  app.get(
    '/things/import-template',
    {
      config: NODES,
      schema: {
        tags,
        summary: 'Download the thing import template (xlsx with help and model list, or csv)',
        querystring: ImportTemplateQuery,
        produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/csv'],
        response: {
          200: { description: 'The template file', type: 'string', format: 'binary' },
          ...errors,
        },
      },
    },
    async (request, reply) => {
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
          .send(file.body as unknown as string)
      );
    },
  );

  app.post(
    '/things/import',
    {
      config: NODES,
      schema: {
        tags,
        summary: 'Create things from an .xlsx or .csv file (multipart field `file`, at most 5 MB)',
        description:
          'Row 1 is the header: identifier, name, model, optional description, region (name or path) and token (the device access token), as keys or as the labels the console shows in any of its languages. The file is read as it arrives: more than 10,000 data rows (or 100,000 lines) answer 400 without reading on. Every row is checked first; any error answers 422 with every row at fault (columns named as the file wrote them) and nothing is created.',
        consumes: ['multipart/form-data'],
        response: { 200: Data(ImportResult), 422: ImportErrorBody, ...errors },
      },
    },
    async (request, reply) => {
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
        return { data: result };
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
    },
  );

  app.get(
    '/things/:id',
    {
      schema: {
        tags,
        summary: 'One thing',
        params: IdParams,
        response: { 200: Data(Thing), ...errors },
      },
    },
    async (request) => ({ data: await service.getThing(request.params.id) }),
  );

  app.post(
    '/things',
    {
      config: NODES,
      schema: {
        tags,
        summary: 'Create a thing (identifier unique, case-sensitive); 422 if the model does not exist',
        body: ThingInput,
        response: { 200: Data(Thing), ...errors },
      },
    },
    async (request) => ({ data: await service.createThing(request.body) }),
  );

  app.put(
    '/things/:id',
    {
      config: NODES,
      schema: {
        tags,
        summary: 'Edit a thing; a move to another category forgets its ability removals',
        params: IdParams,
        body: ThingInput,
        response: { 200: Data(Thing), ...errors },
      },
    },
    async (request) => ({ data: await service.updateThing(request.params.id, request.body) }),
  );

  app.delete(
    '/things/:id',
    {
      config: NODES,
      schema: {
        tags,
        summary: 'Delete a thing with its ability removals and region bindings',
        params: IdParams,
        response: { 200: Data(Ok), ...errors },
      },
    },
    async (request) => {
      await service.deleteThing(request.params.id);
      return ok;
    },
  );

  app.get(
    '/things/:id/abilities',
    {
      schema: {
        tags,
        summary: "A thing's abilities: its model's effective abilities minus those removed from it",
        params: IdParams,
        response: { 200: Data(Type.Array(EffectiveAbility)), ...errors },
      },
    },
    async (request) => ({ data: await service.thingAbilities(request.params.id) }),
  );

  app.delete(
    '/things/:id/abilities',
    {
      config: NODES,
      schema: {
        tags,
        summary: 'Remove abilities (category ability ids, `ids=1,2`) from one thing; returns those left',
        params: IdParams,
        querystring: ThingAbilityIdsQuery,
        response: { 200: Data(Type.Array(EffectiveAbility)), ...errors },
      },
    },
    async (request) => ({
      data: await service.removeThingAbilities(request.params.id, parseIds(request.query.ids)),
    }),
  );

  app.get(
    '/things/:id/token',
    {
      config: NODES,
      schema: {
        tags,
        summary: 'The access token the device sends telemetry with (a credential: nodes grant only)',
        params: IdParams,
        response: { 200: Data(ThingToken), ...errors },
      },
    },
    async (request) => ({ data: await service.thingToken(request.params.id) }),
  );

  app.post(
    '/things/:id/token',
    {
      config: NODES,
      schema: {
        tags,
        summary: 'Replace the device access token; the old one stops working at once',
        params: IdParams,
        response: { 200: Data(ThingToken), ...errors },
      },
    },
    async (request) => ({ data: await service.regenerateThingToken(request.params.id) }),
  );
};
