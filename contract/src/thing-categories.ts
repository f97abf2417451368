import { type Static, Type } from 'typebox';
import { IdParams, Ok, Page, PageQuery, RowId } from './common.ts';
import { endpoint } from './endpoint.ts';
import { Description, Identifier, Name, Timestamp, tags } from './thing-fields.ts';

/**
 * Device model (spec §3, §7 "Device management"): a category defines abilities (the metrics and
 * attributes a device has), a model belongs to a category and may override its abilities
 * (./things.ts: a thing has a model and may remove some of the abilities it inherits).
 */

export const DATA_TYPES = ['number', 'boolean', 'enum', 'string'] as const;
export type DataType = (typeof DATA_TYPES)[number];

export const AGGREGATORS = ['avg', 'sum', 'max', 'min', 'count', 'first', 'last'] as const;
export type Aggregator = (typeof AGGREGATORS)[number];

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

// ---- endpoints: /api/thing (spec §7 "Device management") ----------------------------------------

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
