import { type Static, Type } from 'typebox';
import { IdParams, Ok, RowId } from '../common.ts';
import { endpoint } from '../endpoint.ts';
import { ResourceTypeSchema } from '../query.ts';

/**
 * Filter groups and filters (spec §7; issue 12): a filter group is a named set of filters to
 * compare side by side in the statistics; a filter is one member, a thing or a region (with its
 * sub-regions' things), shown under its own name. See docs/statistics.md.
 */

export const MAX_FILTERS_PER_GROUP = 200;

export const Filter = Type.Object({
  id: Type.Integer(),
  groupId: Type.Integer(),
  /** Shown as the series name; the thing's or region's name when left empty. */
  name: Type.String(),
  resourceType: ResourceTypeSchema,
  resourceId: Type.Integer(),
  /** The thing's or region's current name (empty when it was deleted since). */
  resourceName: Type.String(),
  sort: Type.Integer(),
});
export type Filter = Static<typeof Filter>;

export const FilterGroup = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  filters: Type.Array(Filter),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type FilterGroup = Static<typeof FilterGroup>;

export const FilterInput = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 64 })),
  resourceType: ResourceTypeSchema,
  resourceId: RowId,
});
export type FilterInput = Static<typeof FilterInput>;

/** A group with its whole list of filters, in order (a save replaces the list). */
export const FilterGroupInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 64 }),
  description: Type.Optional(Type.String({ maxLength: 255 })),
  filters: Type.Array(FilterInput, { maxItems: MAX_FILTERS_PER_GROUP }),
});
export type FilterGroupInput = Static<typeof FilterGroupInput>;

export const FilterQuery = Type.Object({
  /** Only this group's filters. */
  groupId: Type.Optional(RowId),
});

const tags = ['statistics'];

export const filterGroupList = endpoint({
  method: 'GET',
  path: '/api/filter-groups',
  response: Type.Array(FilterGroup),
  tags,
  summary: 'Filter groups by name, each with its description and filters',
});

export const filterGroupCreate = endpoint({
  method: 'POST',
  path: '/api/filter-groups',
  body: FilterGroupInput,
  response: FilterGroup,
  tags,
  summary: 'Create a filter group with its filters',
  description: '409 name taken; 422 a thing or region that does not exist, or listed twice.',
});

export const filterGroupUpdate = endpoint({
  method: 'PUT',
  path: '/api/filter-groups/:id',
  params: IdParams,
  body: FilterGroupInput,
  response: FilterGroup,
  tags,
  summary: 'Change a filter group; its filters are replaced by the list sent',
  description: '404 unknown group; 409 name taken; 422 as on create.',
});

export const filterGroupDelete = endpoint({
  method: 'DELETE',
  path: '/api/filter-groups/:id',
  params: IdParams,
  response: Ok,
  tags,
  summary: 'Delete a filter group and its filters',
});

export const filterList = endpoint({
  method: 'GET',
  path: '/api/filters',
  querystring: FilterQuery,
  response: Type.Array(Filter),
  tags,
  summary: 'Filters of every group (or of one), in group and list order',
});
