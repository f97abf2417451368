import { type Static, Type } from 'typebox';
import { PageQuery, RowId } from './common.ts';

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

// ---- units --------------------------------------------------------------------------------------

export const Unit = Type.Object({
  id: Type.Integer(),
  symbol: Type.String(),
  name: Type.String(),
  quantity: Type.String({ description: 'what it measures, e.g. power, energy' }),
});
export type Unit = Static<typeof Unit>;

/** GET /api/units: the console's unit cache asks for pageSize 1000 (spec §9); name matches symbol or name. */
export const UnitQuery = NameSearchQuery;

// ---- device connection and presence -------------------------------------------------------------

/**
 * GET /api/telemetry/connection: what a device needs to reach this server (the token dialog's
 * snippets). `broker`: the in-process broker, token as MQTT username; `external`: the broker of
 * MQTT_URL, which authenticates devices itself; `off`: HTTP only.
 */
export const DeviceConnection = Type.Object({
  mqtt: Type.Object({
    mode: Type.Enum(['broker', 'external', 'off']),
    /** Host name devices connect to; null when MQTT is off. */
    host: Type.Union([Type.String(), Type.Null()]),
    port: Type.Union([Type.Integer(), Type.Null()]),
    /** mqtt, mqtts, ws or wss. */
    protocol: Type.String(),
    /** The connected device's own topic (in-process broker only; null otherwise). */
    ownTopic: Type.Union([Type.String(), Type.Null()]),
    /** A thing's topic with `{identifier}` to fill in. */
    thingTopic: Type.String(),
  }),
  http: Type.Object({
    /** The server as the browser reached it, e.g. `http://plant.local:8080` (no trailing slash). */
    baseUrl: Type.String(),
    /** JSON ingest path (`POST`, device token in `x-Device-Token`). */
    telemetryPath: Type.String(),
    /** InfluxDB v2 line-protocol write path (`Authorization: Token …`). */
    lineProtocolPath: Type.String(),
    /** ThingsBoard's HTTP device API path (`POST`, JSON) with `{token}` to fill in. */
    thingsboardPath: Type.String(),
    /** InfluxDB 1.x line-protocol write path (the token as basic-auth password, `?p=` or `Token …`). */
    lineProtocolV1Path: Type.String(),
  }),
});
export type DeviceConnection = Static<typeof DeviceConnection>;

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
