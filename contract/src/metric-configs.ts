import { type Static, Type } from 'typebox';
import { RowId } from './common.ts';
import { endpoint } from './endpoint.ts';
import { ResourceTypeSchema } from './query.ts';
import { AGGREGATORS } from './thing-categories.ts';

// Type.Enum, not Type.Union of a mapped array: the latter's static type is `never`/`undefined`.
const Aggregator = Type.Enum(AGGREGATORS);

/** Metric config (spec §3): which metrics a resource's charts show, with colour and unit. */
export const MetricConfig = Type.Object({
  id: Type.Integer(),
  resourceType: ResourceTypeSchema,
  resourceId: Type.Integer(),
  categoryId: Type.Union([Type.Integer(), Type.Null()]),
  metricIdentifier: Type.String(),
  metricName: Type.String(),
  name: Type.String(),
  enabled: Type.Boolean(),
  unit: Type.String(),
  aggregator: Aggregator,
  function: Type.String(),
  color: Type.String(),
  sort: Type.Integer(),
});
export type MetricConfig = Static<typeof MetricConfig>;

export const MetricConfigQuery = Type.Object({
  resourceType: ResourceTypeSchema,
  resourceId: RowId,
  categoryId: Type.Optional(RowId),
});

/** PATCH /api/query/config: the whole list of a resource's metric configs, replaced at once. */
export const MetricConfigPatch = Type.Object({
  resourceType: ResourceTypeSchema,
  resourceId: RowId,
  categoryId: Type.Optional(Type.Union([RowId, Type.Null()])),
  configs: Type.Array(
    Type.Object({
      metricIdentifier: Type.String({ minLength: 1, maxLength: 64 }),
      metricName: Type.Optional(Type.String({ maxLength: 64 })),
      name: Type.Optional(Type.String({ maxLength: 64 })),
      enabled: Type.Boolean(),
      unit: Type.Optional(Type.String({ maxLength: 32 })),
      aggregator: Type.Optional(Aggregator),
      function: Type.Optional(Type.String({ maxLength: 32 })),
      color: Type.Optional(Type.String({ pattern: '^#[0-9A-Fa-f]{6}$' })),
    }),
    { maxItems: 200 },
  ),
});
export type MetricConfigPatch = Static<typeof MetricConfigPatch>;

// ---- endpoints: /api/query/config ---------------------------------------------------------------

export const metricConfigList = endpoint({
  method: 'GET',
  path: '/api/query/config',
  querystring: MetricConfigQuery,
  response: Type.Array(MetricConfig),
  tags: ['query'],
  summary: "A resource's metric configs (sorted); with categoryId, that category's list",
});

/** Needs admin or a role granting the real-time monitoring route, where the console edits them. */
export const metricConfigSave = endpoint({
  method: 'PATCH',
  path: '/api/query/config',
  body: MetricConfigPatch,
  response: Type.Array(MetricConfig),
  tags: ['query'],
  summary: "Replace a resource's metric configs (the whole list, in display order)",
  description:
    'Missing names, units and aggregators are taken from the ability. 404 unknown resource; 422 a metric that is not an ability of the thing (or of the things bound to the region), or listed twice.',
});
