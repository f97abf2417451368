import { type Static, Type } from 'typebox';
import { IdParams, MAX_EPOCH_MS, Ok, RowId } from './common.ts';
import { endpoint } from './endpoint.ts';
import { ResourceTypeSchema } from './query.ts';

/**
 * Explore (docs/explore.md): a free-form chart screen of stacked panels over one time range, and
 * the views a user saves of it. A view is its owner's alone: nobody else lists, reads or changes it.
 */

/** Panels a view holds, at most. */
export const MAX_EXPLORE_PANELS = 8;
/** Series one panel holds, at most. */
export const MAX_EXPLORE_SERIES = 20;
/** Longest view name. */
export const MAX_EXPLORE_NAME = 64;
/** Views one user keeps, at most. */
export const MAX_EXPLORE_VIEWS = 100;

/** The quick ranges, each a span ending now. */
export const EXPLORE_QUICK_RANGES = ['15m', '1h', '8h', '24h', '7d', '30d'] as const;
export type ExploreQuickRange = (typeof EXPLORE_QUICK_RANGES)[number];

/** One line of a panel: an ability of a thing, or of a region (its things combined). */
export const ExploreSeries = Type.Object({
  resourceType: ResourceTypeSchema,
  resourceId: RowId,
  metric: Type.String({ minLength: 1, maxLength: 64 }),
});
export type ExploreSeries = Static<typeof ExploreSeries>;

export const ExplorePanel = Type.Object({
  series: Type.Array(ExploreSeries, { maxItems: MAX_EXPLORE_SERIES }),
});
export type ExplorePanel = Static<typeof ExplorePanel>;

const EpochMs = Type.Number({ minimum: 0, maximum: MAX_EPOCH_MS });

/** A span ending now (`last`), or a fixed range [start, end) in ms. */
export const ExploreRange = Type.Union([
  // Spelled out: a union mapped over the array has no static type (see web/src/api/telemetry.ts).
  Type.Object({
    last: Type.Union([
      Type.Literal('15m'),
      Type.Literal('1h'),
      Type.Literal('8h'),
      Type.Literal('24h'),
      Type.Literal('7d'),
      Type.Literal('30d'),
    ]),
  }),
  Type.Object({ start: EpochMs, end: EpochMs }),
]);
export type ExploreRange = Static<typeof ExploreRange>;

export const ExploreState = Type.Object({
  panels: Type.Array(ExplorePanel, { maxItems: MAX_EXPLORE_PANELS }),
  range: ExploreRange,
});
export type ExploreState = Static<typeof ExploreState>;

export const ExploreView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  state: ExploreState,
  /** ms since the epoch. */
  createdAt: Type.Integer(),
  updatedAt: Type.Integer(),
});
export type ExploreView = Static<typeof ExploreView>;

const ViewName = Type.String({ minLength: 1, maxLength: MAX_EXPLORE_NAME });

export const ExploreViewCreate = Type.Object({ name: ViewName, state: ExploreState });
export type ExploreViewCreate = Static<typeof ExploreViewCreate>;

/** A rename, a new state, or both. */
export const ExploreViewPatch = Type.Object({
  name: Type.Optional(ViewName),
  state: Type.Optional(ExploreState),
});
export type ExploreViewPatch = Static<typeof ExploreViewPatch>;

const tags = ['explore'];

export const exploreViewList = endpoint({
  method: 'GET',
  path: '/api/explore/views',
  response: Type.Array(ExploreView),
  tags,
  summary: 'The caller’s saved Explore views, by name',
});

export const exploreViewCreate = endpoint({
  method: 'POST',
  path: '/api/explore/views',
  body: ExploreViewCreate,
  response: ExploreView,
  tags,
  summary: 'Save an Explore view (panels and time range) under a name of the caller’s',
  description:
    '409 when the caller already has a view of that name; 422 past 100 views or a start not before its end.',
});

export const exploreViewPatch = endpoint({
  method: 'PATCH',
  path: '/api/explore/views/:id',
  params: IdParams,
  body: ExploreViewPatch,
  response: ExploreView,
  tags,
  summary: 'Rename one of the caller’s Explore views or save its panels and range',
  description: '404 when the caller has no view of that id (another user’s included); 409 on a taken name.',
});

export const exploreViewDelete = endpoint({
  method: 'DELETE',
  path: '/api/explore/views/:id',
  params: IdParams,
  response: Ok,
  tags,
  summary: 'Delete one of the caller’s Explore views',
  description: '404 when the caller has no view of that id (another user’s included).',
});
