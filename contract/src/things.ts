import { type Static, Type } from 'typebox';
import { IdParams, Ok, Page, PageQuery, RowId } from './common.ts';
import { endpoint } from './endpoint.ts';

/**
 * Device model (spec §3, §7 "Device management"): a category defines abilities (the metrics and
 * attributes a device has), a model belongs to a category and may override its abilities, a thing
 * has a model and may remove some of the abilities it inherits.
 */

export const DATA_TYPES = ['number', 'boolean', 'enum', 'string'] as const;
export type DataType = (typeof DATA_TYPES)[number];

export const AGGREGATORS = ['avg', 'sum', 'max', 'min', 'count', 'first', 'last'] as const;
export type Aggregator = (typeof AGGREGATORS)[number];

const Name = Type.String({ minLength: 1, maxLength: 64 });
const Description = Type.String({ maxLength: 500 });
/** Identifiers travel in MQTT payloads and line protocol: letters, digits, _ - . : only. */
export const IDENTIFIER_PATTERN = '^[A-Za-z][A-Za-z0-9_.:-]{0,63}$';
const Identifier = Type.String({ pattern: IDENTIFIER_PATTERN, maxLength: 64 });
const Timestamp = Type.String({ description: 'ISO-8601 UTC' });

export const EnumOption = Type.Object({ value: Type.String({ minLength: 1, maxLength: 64 }), label: Name });

// ---- abilities ----------------------------------------------------------------------------------

const AbilityFields = {
  identifier: Identifier,
  name: Name,
  unit: Type.String({ maxLength: 32 }),
  // Type.Enum, not Type.Union of a mapped array: the latter's static type is `never`.
  dataType: Type.Enum(DATA_TYPES),
  aggregator: Type.Enum(AGGREGATORS),
  /** A cumulative counter (energy, running hours, start count) rather than an instantaneous value. */
  cumulative: Type.Boolean(),
  /** Options of an enum ability (e.g. 运转状态: 0 停机, 1 运行). */
  enumOptions: Type.Array(EnumOption, { maxItems: 64 }),
  sort: Type.Integer({ minimum: 0, maximum: 100000 }),
};

export const CategoryAbility = Type.Object({
  id: Type.Integer(),
  categoryId: Type.Integer(),
  ...AbilityFields,
});
export type CategoryAbility = Static<typeof CategoryAbility>;

export const CategoryAbilityInput = Type.Object({
  identifier: AbilityFields.identifier,
  name: AbilityFields.name,
  unit: Type.Optional(AbilityFields.unit),
  dataType: Type.Optional(AbilityFields.dataType),
  aggregator: Type.Optional(AbilityFields.aggregator),
  cumulative: Type.Optional(AbilityFields.cumulative),
  enumOptions: Type.Optional(AbilityFields.enumOptions),
  sort: Type.Optional(AbilityFields.sort),
});
export type CategoryAbilityInput = Static<typeof CategoryAbilityInput>;

/** PATCH /api/thing/categories/abilities/{categoryId}: update several abilities of a category at once. */
export const CategoryAbilitiesPatch = Type.Array(
  Type.Object({
    id: RowId,
    name: Type.Optional(AbilityFields.name),
    unit: Type.Optional(AbilityFields.unit),
    dataType: Type.Optional(AbilityFields.dataType),
    aggregator: Type.Optional(AbilityFields.aggregator),
    cumulative: Type.Optional(AbilityFields.cumulative),
    enumOptions: Type.Optional(AbilityFields.enumOptions),
    sort: Type.Optional(AbilityFields.sort),
  }),
  { minItems: 1, maxItems: 500 },
);
export type CategoryAbilitiesPatch = Static<typeof CategoryAbilitiesPatch>;

/** An ability as a model or thing sees it: the category's, with the model's overrides applied. */
export const EffectiveAbility = Type.Object({
  /** The category ability's id (spec §3: abilities carry categoryId and abilityId). */
  abilityId: Type.Integer(),
  categoryId: Type.Integer(),
  ...AbilityFields,
  /** True where the model overrides one of the fields. */
  overridden: Type.Boolean(),
});
export type EffectiveAbility = Static<typeof EffectiveAbility>;

/** PATCH /api/thing/models/abilities/{abilityId}: the model's override of one category ability. */
export const ModelAbilityPatch = Type.Object({
  modelId: RowId,
  name: Type.Optional(AbilityFields.name),
  unit: Type.Optional(AbilityFields.unit),
  aggregator: Type.Optional(AbilityFields.aggregator),
  cumulative: Type.Optional(AbilityFields.cumulative),
  sort: Type.Optional(AbilityFields.sort),
  /** Drops every override of this ability for the model. */
  reset: Type.Optional(Type.Boolean()),
});
export type ModelAbilityPatch = Static<typeof ModelAbilityPatch>;

// ---- categories ---------------------------------------------------------------------------------

export const Category = Type.Object({
  id: Type.Integer(),
  name: Name,
  description: Description,
  abilityCount: Type.Integer(),
  modelCount: Type.Integer(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Category = Static<typeof Category>;

export const CategoryInput = Type.Object({ name: Name, description: Type.Optional(Description) });
export type CategoryInput = Static<typeof CategoryInput>;

export const NameSearchQuery = Type.Object({
  ...PageQuery.properties,
  /** Case-insensitive substring of the name (things: of the name or the identifier). */
  name: Type.Optional(Type.String({ maxLength: 64 })),
});
export type NameSearchQuery = Static<typeof NameSearchQuery>;

// ---- models -------------------------------------------------------------------------------------

export const Model = Type.Object({
  id: Type.Integer(),
  categoryId: Type.Integer(),
  categoryName: Type.String(),
  name: Name,
  description: Description,
  thingCount: Type.Integer(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Model = Static<typeof Model>;

export const ModelInput = Type.Object({
  categoryId: RowId,
  name: Name,
  description: Type.Optional(Description),
});
export type ModelInput = Static<typeof ModelInput>;

export const ModelQuery = Type.Object({
  ...NameSearchQuery.properties,
  categoryId: Type.Optional(RowId),
});
export type ModelQuery = Static<typeof ModelQuery>;

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

const tags = ['things'];

export const CategoryIdParams = Type.Object({ categoryId: RowId });
export const AbilityIdParams = Type.Object({ abilityId: RowId });

export const categoryList = endpoint({
  method: 'GET',
  path: '/api/thing/categories',
  querystring: NameSearchQuery,
  response: Page(Category),
  tags,
  summary: 'Categories, paged; `name` matches a substring of the name, ignoring case',
});

export const categoryCreate = endpoint({
  method: 'POST',
  path: '/api/thing/categories',
  body: CategoryInput,
  response: Category,
  tags,
  summary: 'Create a category (name unique, ignoring case)',
});

export const categoryUpdate = endpoint({
  method: 'PUT',
  path: '/api/thing/categories/:id',
  params: IdParams,
  body: CategoryInput,
  response: Category,
  tags,
  summary: 'Rename or describe a category',
});

export const categoryDelete = endpoint({
  method: 'DELETE',
  path: '/api/thing/categories/:id',
  params: IdParams,
  response: Ok,
  tags,
  summary: 'Delete a category with its abilities; 409 naming the models while any use it',
});

export const categoryAbilityList = endpoint({
  method: 'GET',
  path: '/api/thing/categories/:categoryId/abilities',
  params: CategoryIdParams,
  response: Type.Array(CategoryAbility),
  tags,
  summary: 'The abilities (metrics and attributes) a category defines',
});

export const categoryAbilityCreate = endpoint({
  method: 'POST',
  path: '/api/thing/categories/:categoryId/abilities',
  params: CategoryIdParams,
  body: CategoryAbilityInput,
  response: CategoryAbility,
  tags,
  summary: 'Add an ability to a category; 409 when its identifier is taken in the category',
  description:
    'Defaults: unit "", dataType number, cumulative false, aggregator avg (sum for a cumulative counter), sort 0.',
});

export const categoryAbilityUpdateMany = endpoint({
  method: 'PATCH',
  path: '/api/thing/categories/abilities/:categoryId',
  params: CategoryIdParams,
  body: CategoryAbilitiesPatch,
  response: Type.Array(CategoryAbility),
  tags,
  summary: "Update several of a category's abilities at once; returns all its abilities",
  description: 'All or nothing: 404 when an id is not an ability of this category.',
});

export const categoryAbilityDelete = endpoint({
  method: 'DELETE',
  path: '/api/thing/categories/abilities/:id',
  params: IdParams,
  response: Ok,
  tags,
  summary: "Delete a category ability with the models' overrides and things' removals of it",
});

export const modelList = endpoint({
  method: 'GET',
  path: '/api/thing/models',
  querystring: ModelQuery,
  response: Page(Model),
  tags,
  summary: 'Models, paged; filter by category and name substring',
});

export const modelCreate = endpoint({
  method: 'POST',
  path: '/api/thing/models',
  body: ModelInput,
  response: Model,
  tags,
  summary: 'Create a model in a category (name unique within it); 422 if the category does not exist',
});

export const modelUpdate = endpoint({
  method: 'PUT',
  path: '/api/thing/models/:id',
  params: IdParams,
  body: ModelInput,
  response: Model,
  tags,
  summary: 'Edit a model; moving it to another category drops its overrides',
});

export const modelDelete = endpoint({
  method: 'DELETE',
  path: '/api/thing/models/:id',
  params: IdParams,
  response: Ok,
  tags,
  summary: 'Delete a model with its overrides; 409 naming the things while any use it',
});

export const modelAbilityList = endpoint({
  method: 'GET',
  path: '/api/thing/models/:id/abilities',
  params: IdParams,
  response: Type.Array(EffectiveAbility),
  tags,
  summary: "A model's abilities: its category's, with the model's overrides applied",
});

export const modelAbilityPatch = endpoint({
  method: 'PATCH',
  path: '/api/thing/models/abilities/:abilityId',
  params: AbilityIdParams,
  body: ModelAbilityPatch,
  response: EffectiveAbility,
  tags,
  summary: 'Override (or with reset: true, stop overriding) one category ability for a model',
  description: 'abilityId is the category ability id; 404 when it is not of the model’s category.',
});

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
