import { type Static, type TSchema, Type } from 'typebox';
import { MAX_SORT, RowId } from './common.ts';
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
export const RegionNodeSchema = nodeSchema(MAX_DEPTH);
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
