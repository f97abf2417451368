import { type Static, Type } from 'typebox';
import { IdParams, Ok, Page, RowId } from './common.ts';
import { endpoint } from './endpoint.ts';
import { EffectiveAbility, NameSearchQuery } from './thing-categories.ts';
import { Description, Identifier, Name, Timestamp, tags } from './thing-fields.ts';

/**
 * Things (spec §3, §7 "Device management"): a thing has a model (./thing-categories.ts) and may
 * remove some of the abilities it inherits; bulk import, presence and the /api/thing/things endpoints.
 */

// ---- things -------------------------------------------------------------------------------------

export const ThingAttribute = Type.Object({
  identifier: Type.String({ minLength: 1, maxLength: 64 }),
  name: Type.String({ minLength: 1, maxLength: 64 }),
  value: Type.String({ maxLength: 500 }),
});
export type ThingAttribute = Static<typeof ThingAttribute>;

export const ThingSetting = Type.Object({ attributes: Type.Array(ThingAttribute, { maxItems: 100 }) });

export const Thing = Type.Object({
  id: Type.Integer(),
  identifier: Identifier,
  name: Name,
  description: Description,
  modelId: Type.Integer(),
  modelName: Type.String(),
  categoryId: Type.Integer(),
  categoryName: Type.String(),
  setting: ThingSetting,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Thing = Static<typeof Thing>;

export const ThingInput = Type.Object({
  identifier: Identifier,
  name: Name,
  description: Type.Optional(Description),
  modelId: RowId,
  setting: Type.Optional(ThingSetting),
});
export type ThingInput = Static<typeof ThingInput>;

export const ThingQuery = Type.Object({
  ...NameSearchQuery.properties,
  categoryId: Type.Optional(RowId),
  modelId: Type.Optional(RowId),
});
export type ThingQuery = Static<typeof ThingQuery>;

/** Admin-only: the token a device authenticates with when it sends telemetry. */
export const ThingToken = Type.Object({ thingId: Type.Integer(), accessToken: Type.String() });
export type ThingToken = Static<typeof ThingToken>;

/** DELETE /api/thing/things/{id}/abilities?ids=1,2 (category ability ids, comma-separated or repeated). */
export const ThingAbilityIdsQuery = Type.Object({
  ids: Type.Union([
    Type.String({ minLength: 1, maxLength: 2000 }),
    Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { minItems: 1, maxItems: 500 }),
  ]),
});

/** GET /api/thing/things/import-template?format=xlsx|csv */
export const IMPORT_FORMATS = ['xlsx', 'csv'] as const;
export const ImportTemplateQuery = Type.Object({
  format: Type.Optional(
    Type.Union(
      IMPORT_FORMATS.map((f) => Type.Literal(f)),
      { default: 'xlsx' },
    ),
  ),
});
/** Largest import file accepted. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;

/** Result of a bulk import: everything written, or nothing and the rows at fault. */
export const ImportResult = Type.Object({ created: Type.Integer() });
export type ImportResult = Static<typeof ImportResult>;
export const ImportRowError = Type.Object({
  row: Type.Integer({ description: '1-based row number in the file, header is row 1' }),
  column: Type.String({ description: "the column's header as written in the file (its label when missing)" }),
  message: Type.String(),
});
export const ImportErrorBody = Type.Object({
  code: Type.String(),
  message: Type.String(),
  errors: Type.Array(ImportRowError),
});
export type ImportRowError = Static<typeof ImportRowError>;
/** Columns of the import template, in order (region and token are optional). */
export const THING_IMPORT_COLUMNS = [
  'identifier',
  'name',
  'model',
  'description',
  'region',
  'token',
] as const;

// ---- presence -------------------------------------------------------------------------

/** Whether a thing sends: a value within its presence window, values but older, or never a value. */
export const PRESENCE_STATES = ['online', 'offline', 'never'] as const;
export type Presence = (typeof PRESENCE_STATES)[number];
/** A thing counts as online while its newest value is at most this old (or 3 × its usual interval). */
export const ONLINE_WINDOW_MS = 5 * 60_000;

/** A row of the device list: the thing, when it last sent a value (ms) and what that makes it. */
export const ThingListItem = Type.Object({
  ...Thing.properties,
  lastSeen: Type.Union([Type.Number(), Type.Null()]),
  presence: Type.Enum(PRESENCE_STATES),
});
export type ThingListItem = Static<typeof ThingListItem>;

/** GET /api/thing/things: ThingQuery plus a presence filter. */
export const ThingListQuery = Type.Object({
  ...ThingQuery.properties,
  presence: Type.Optional(Type.Enum(PRESENCE_STATES)),
});
export type ThingListQuery = Static<typeof ThingListQuery>;

// ---- endpoints: /api/thing (spec §7 "Device management") ----------------------------------------

export const thingList = endpoint({
  method: 'GET',
  path: '/api/thing/things',
  querystring: ThingListQuery,
  response: Page(ThingListItem),
  tags,
  summary:
    'Things (devices), paged, with last seen time and presence; filter by category, model, name or identifier substring, and presence',
  description:
    'presence: online (a value within 5 minutes, or 3 of its usual intervals when slower), offline (older values), never (no value stored). See docs/devices.md.',
});

/** A file, not JSON: the console downloads it (`download()`), it does not `call()` it. */
export const thingImportTemplate = endpoint({
  method: 'GET',
  path: '/api/thing/things/import-template',
  querystring: ImportTemplateQuery,
  response: Type.Unsafe<Blob>({ description: 'The template file', type: 'string', format: 'binary' }),
  raw: true,
  tags,
  summary: 'Download the thing import template (xlsx with help and model list, or csv)',
  produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/csv'],
});

/** A multipart body (field `file`): the console sends it with `upload()`. */
export const thingImport = endpoint({
  method: 'POST',
  path: '/api/thing/things/import',
  response: ImportResult,
  responses: { 422: ImportErrorBody },
  tags,
  summary: 'Create things from an .xlsx or .csv file (multipart field `file`, at most 5 MB)',
  description:
    'Row 1 is the header: identifier, name, model, optional description, region (name or path) and token (the device access token), as keys or as the labels the console shows in any of its languages. The file is read as it arrives: more than 10,000 data rows (or 100,000 lines) answer 400 without reading on. Every row is checked first; any error answers 422 with every row at fault (columns named as the file wrote them) and nothing is created.',
  consumes: ['multipart/form-data'],
});

export const thingGet = endpoint({
  method: 'GET',
  path: '/api/thing/things/:id',
  params: IdParams,
  response: Thing,
  tags,
  summary: 'One thing',
});

export const thingCreate = endpoint({
  method: 'POST',
  path: '/api/thing/things',
  body: ThingInput,
  response: Thing,
  tags,
  summary: 'Create a thing (identifier unique, case-sensitive); 422 if the model does not exist',
});

export const thingUpdate = endpoint({
  method: 'PUT',
  path: '/api/thing/things/:id',
  params: IdParams,
  body: ThingInput,
  response: Thing,
  tags,
  summary: 'Edit a thing; a move to another category forgets its ability removals',
});

export const thingDelete = endpoint({
  method: 'DELETE',
  path: '/api/thing/things/:id',
  params: IdParams,
  response: Ok,
  tags,
  summary: 'Delete a thing with its ability removals and region bindings',
});

export const thingAbilityList = endpoint({
  method: 'GET',
  path: '/api/thing/things/:id/abilities',
  params: IdParams,
  response: Type.Array(EffectiveAbility),
  tags,
  summary: "A thing's abilities: its model's effective abilities minus those removed from it",
});

export const thingAbilityRemove = endpoint({
  method: 'DELETE',
  path: '/api/thing/things/:id/abilities',
  params: IdParams,
  querystring: ThingAbilityIdsQuery,
  response: Type.Array(EffectiveAbility),
  tags,
  summary: 'Remove abilities (category ability ids, `ids=1,2`) from one thing; returns those left',
});

export const thingTokenGet = endpoint({
  method: 'GET',
  path: '/api/thing/things/:id/token',
  params: IdParams,
  response: ThingToken,
  tags,
  summary: 'The access token the device sends telemetry with (a credential: nodes grant only)',
});

export const thingTokenRegenerate = endpoint({
  method: 'POST',
  path: '/api/thing/things/:id/token',
  params: IdParams,
  response: ThingToken,
  tags,
  summary: 'Replace the device access token; the old one stops working at once',
});
