import { type Static, type TSchema, Type } from 'typebox';
import { IdParams, MAX_SORT, Ok, RowId } from './common.ts';
import { endpoint } from './endpoint.ts';
import { Thing } from './things.ts';

/**
 * Region tree (spec §3 tree node, §7 Regions): a plant's sites, workshops and lines. Things are
 * bound to regions; region queries aggregate over the things bound to a node (and, with
 * `successor`, its descendants).
 */

/** A row id: ids are 32-bit integer columns, so larger numbers are refused as bad input (400). */

export const RESOURCE_TYPES = ['region', 'thing'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export interface RegionNode {
  id: number;
  parentId: number | null;
  name: string;
  description: string;
  /** Set on thing leaves of a tree with things (`withThings=true`). */
  thingId: number | null;
  resourceType: ResourceType;
  /** Where the node sits: region ids from the root down to its parent. */
  dimensions: number[];
  level: number;
  sort: number;
  /** Whether the node can be selected in monitoring trees (regions always; thing leaves too). */
  isClick: boolean;
  children: RegionNode[];
}

const NodeFields = {
  id: Type.Integer(),
  parentId: Type.Union([Type.Integer(), Type.Null()]),
  name: Type.String(),
  description: Type.String(),
  thingId: Type.Union([Type.Integer(), Type.Null()]),
  resourceType: Type.Union([Type.Literal('region'), Type.Literal('thing')]),
  dimensions: Type.Array(Type.Integer()),
  level: Type.Integer(),
  sort: Type.Integer(),
  isClick: Type.Boolean(),
};

/** Recursive schema built to a fixed depth: OpenAPI and serialisation need a plain schema. */
const MAX_DEPTH = 12;
function nodeSchema(depth: number): TSchema {
  return Type.Object({
    ...NodeFields,
    children: depth <= 0 ? Type.Array(Type.Unknown(), { maxItems: 0 }) : Type.Array(nodeSchema(depth - 1)),
  });
}
/** Typed as `RegionNode`, so `Static<>` of a tree answer is the tree, not `unknown`. */
export const RegionNodeSchema = Type.Unsafe<RegionNode>(nodeSchema(MAX_DEPTH));
export const REGION_MAX_DEPTH = MAX_DEPTH;

export const RegionTreeQuery = Type.Object({
  /** Include bound things as leaves (for monitoring trees). */
  withThings: Type.Optional(Type.Boolean()),
  categoryId: Type.Optional(RowId),
});

export const RegionInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 64 }),
  description: Type.Optional(Type.String({ maxLength: 500 })),
  parentId: Type.Optional(Type.Union([RowId, Type.Null()])),
});
export type RegionInput = Static<typeof RegionInput>;

export const RegionUpdate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 64 }),
  description: Type.Optional(Type.String({ maxLength: 500 })),
});
export type RegionUpdate = Static<typeof RegionUpdate>;

/** PATCH /api/regions/order: new parent and position of each moved or reordered node. */
export const RegionOrder = Type.Array(
  Type.Object({
    id: RowId,
    parentId: Type.Union([RowId, Type.Null()]),
    sort: Type.Integer({ minimum: 0, maximum: MAX_SORT }),
  }),
  { minItems: 1, maxItems: 5000 },
);
export type RegionOrder = Static<typeof RegionOrder>;

export const Region = Type.Object({
  id: Type.Integer(),
  parentId: Type.Union([Type.Integer(), Type.Null()]),
  name: Type.String(),
  description: Type.String(),
  sort: Type.Integer(),
});
export type Region = Static<typeof Region>;

export const BindingsQuery = Type.Object({
  categoryId: Type.Optional(RowId),
  /** Include things bound to descendant regions. */
  successor: Type.Optional(Type.Boolean()),
});

export const AllBindingsQuery = Type.Object({ categoryId: Type.Optional(RowId) });

/** A thing bound to a region. */
export const Binding = Type.Object({
  regionId: Type.Integer(),
  regionName: Type.String(),
  thing: Thing,
});
export type Binding = Static<typeof Binding>;

export const BindInput = Type.Object({
  thingIds: Type.Array(RowId, { minItems: 1, maxItems: 1000 }),
});
export type BindInput = Static<typeof BindInput>;
export const UnbindQuery = Type.Object({ thingIds: Type.String({ minLength: 1, maxLength: 8000 }) });

// ---- endpoints: /api/regions (spec §7 Regions) --------------------------------------------------

const tags = ['regions'];
const Tree = Type.Array(RegionNodeSchema);

export const regionTree = endpoint({
  method: 'GET',
  path: '/api/regions',
  querystring: RegionTreeQuery,
  response: Tree,
  tags,
  summary: 'Region tree; withThings adds bound things as leaves (optionally of one category)',
});

export const regionCreate = endpoint({
  method: 'POST',
  path: '/api/regions',
  body: RegionInput,
  response: Region,
  tags,
  summary: 'Create a region (at the end of its parent, or as a root)',
});

export const regionOrder = endpoint({
  method: 'PATCH',
  path: '/api/regions/order',
  body: RegionOrder,
  response: Tree,
  tags,
  summary: 'Move and reorder regions in one step; answers the new tree',
  description:
    'Each entry sets the parent and sort of one region. Refused (422) when a region would sit under itself or one of its descendants, or the tree would be deeper than REGION_MAX_DEPTH.',
});

export const regionBindingsAll = endpoint({
  method: 'GET',
  path: '/api/regions/bindings',
  querystring: AllBindingsQuery,
  response: Type.Array(Binding),
  tags,
  summary: 'Every binding of a thing to a region, optionally of one category',
});

export const regionUnbound = endpoint({
  method: 'GET',
  path: '/api/regions/unbound',
  querystring: AllBindingsQuery,
  response: Type.Array(Thing),
  tags,
  summary: 'Things bound to no region (optionally of one category), by name',
  description: 'Monitoring trees list them in an "unassigned" group so every device can be reached.',
});

export const regionUpdate = endpoint({
  method: 'PUT',
  path: '/api/regions/:id',
  params: IdParams,
  body: RegionUpdate,
  response: Region,
  tags,
  summary: 'Rename a region or change its description',
});

export const regionDelete = endpoint({
  method: 'DELETE',
  path: '/api/regions/:id',
  params: IdParams,
  response: Ok,
  tags,
  summary: 'Delete a region without sub-regions (409 otherwise); its bindings go with it',
});

export const regionBindingList = endpoint({
  method: 'GET',
  path: '/api/regions/:id/bindings',
  params: IdParams,
  querystring: BindingsQuery,
  response: Type.Array(Binding),
  tags,
  summary: 'Things bound to a region; successor=true includes its descendants',
});

export const regionBind = endpoint({
  method: 'POST',
  path: '/api/regions/:id/bindings',
  params: IdParams,
  body: BindInput,
  response: Type.Array(Binding),
  tags,
  summary: "Bind things to a region (already bound ones are kept); answers the region's bindings",
  description: 'A thing may be bound to several regions.',
});

export const regionUnbind = endpoint({
  method: 'DELETE',
  path: '/api/regions/:id/bindings',
  params: IdParams,
  querystring: UnbindQuery,
  response: Type.Array(Binding),
  tags,
  summary: "Unbind things (?thingIds=1,2) from a region; answers the region's bindings",
});
