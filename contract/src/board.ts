import { type Static, Type } from 'typebox';
import { IdParams, Ok, RowId } from './common.ts';
import { endpoint } from './endpoint.ts';
import { CHART_TYPES, GridLayouts, gridComponentFields, gridComponentInput } from './energy/index.ts';

/**
 * The workshop data board (spec §2 workshopBoard, §7 /api/board/pages; docs/board.md): pages
 * shown in turn on a TV, each a grid of components for a region. A component is a KPI report
 * component (reports.ts: line, pie, bar, bar-accumulation, operation over today) or `devices`,
 * the region's device tiles with their values now (GET /api/board/components/{regionId}).
 */

/** A page's weight: its share of the rotation and its place in it (heaviest first). */
export const BOARD_MIN_WEIGHT = 1;
export const BOARD_MAX_WEIGHT = 10;
/** Seconds a page stays on screen each time it comes up. */
export const BOARD_MIN_INTERVAL_S = 5;
export const BOARD_MAX_INTERVAL_S = 3600;
export const BOARD_DEFAULT_INTERVAL_S = 30;
/** Pages one board may hold. */
export const BOARD_MAX_PAGES = 100;

export const BOARD_CHART_TYPES = [...CHART_TYPES, 'devices'] as const;
export type BoardChartType = (typeof BOARD_CHART_TYPES)[number];

const Name = Type.String({ minLength: 1, maxLength: 64 });
const Weight = Type.Integer({ minimum: BOARD_MIN_WEIGHT, maximum: BOARD_MAX_WEIGHT });
const Interval = Type.Integer({ minimum: BOARD_MIN_INTERVAL_S, maximum: BOARD_MAX_INTERVAL_S });

export const BoardPage = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  regionId: Type.Integer(),
  regionName: Type.String(),
  /** The region's sub-regions count too (their devices show, their data add up). */
  successor: Type.Boolean(),
  /** Device tiles of this category only; null: every category. */
  categoryId: Type.Union([Type.Integer(), Type.Null()]),
  /** Seconds on screen each time the page comes up. */
  interval: Type.Integer(),
  weight: Type.Integer(),
  enabled: Type.Boolean(),
  /** Its share of the rotation's time (0–1): weight × interval over the enabled pages' sum; 0 when disabled. */
  share: Type.Number(),
  components: Type.Integer(),
  updatedAt: Type.Number(),
});
export type BoardPage = Static<typeof BoardPage>;

export const BoardPageInput = Type.Object({
  name: Name,
  regionId: RowId,
  successor: Type.Optional(Type.Boolean()),
  categoryId: Type.Optional(Type.Union([RowId, Type.Null()])),
  interval: Type.Optional(Interval),
  weight: Type.Optional(Weight),
  enabled: Type.Optional(Type.Boolean()),
});
export type BoardPageInput = Static<typeof BoardPageInput>;

export const BoardPagePatch = Type.Partial(BoardPageInput);
export type BoardPagePatch = Static<typeof BoardPagePatch>;

export const BoardWeight = Type.Object({ weight: Weight });

export const BoardComponent = Type.Object({
  id: Type.Integer(),
  pageId: Type.Integer(),
  ...gridComponentFields(BOARD_CHART_TYPES),
});
export type BoardComponent = Static<typeof BoardComponent>;

/** Charts: 1–8 metrics. Device tiles: the values each tile shows (none: its first two), of the page's region when none is named. */
export const BoardComponentInput = gridComponentInput(BOARD_CHART_TYPES, 0);
export type BoardComponentInput = Static<typeof BoardComponentInput>;

export const BoardComponentPatch = Type.Partial(BoardComponentInput);
export type BoardComponentPatch = Static<typeof BoardComponentPatch>;

export const BoardLayouts = GridLayouts;
export type BoardLayouts = Static<typeof BoardLayouts>;

export const BoardComponentParams = Type.Object({ pageId: RowId, componentId: RowId });

/** The display order: heaviest first, then the oldest. */
export const byBoardOrder = (a: Pick<BoardPage, 'weight' | 'id'>, b: Pick<BoardPage, 'weight' | 'id'>) =>
  b.weight - a.weight || a.id - b.id;

/**
 * One rotation of the board: the enabled pages by smooth weighted round robin, so a page of
 * weight 3 comes up three times, spread between the others (A B A C A for weights 3, 1, 1), and
 * stays `interval` seconds each time. The heaviest page opens the rotation; equal weights keep
 * the display order. Each page's time per rotation is weight × interval.
 * @example boardRotation([{ id: 1, weight: 2, … }, { id: 2, weight: 1, … }]) // [1, 2, 1]
 */
export function boardRotation<P extends Pick<BoardPage, 'id' | 'weight' | 'enabled'>>(
  pages: readonly P[],
): P[] {
  const shown = pages.filter((p) => p.enabled).sort(byBoardOrder);
  const total = shown.reduce((sum, p) => sum + p.weight, 0);
  const current = shown.map(() => 0);
  const sequence: P[] = [];
  for (let slot = 0; slot < total; slot++) {
    let best = 0;
    shown.forEach((p, i) => {
      current[i] = (current[i] as number) + p.weight;
      if ((current[i] as number) > (current[best] as number)) best = i;
    });
    current[best] = (current[best] as number) - total;
    sequence.push(shown[best] as P);
  }
  return sequence;
}

// ---- endpoints -----------------------------------------------------------------------------------

export const boardPageList = endpoint({
  method: 'GET',
  path: '/api/board/pages',
  response: Type.Array(BoardPage),
  tags: ['board'],
  summary: 'The board pages in display order (heaviest first), each with its share of the rotation',
});

export const boardPageCreate = endpoint({
  method: 'POST',
  path: '/api/board/pages',
  body: BoardPageInput,
  response: BoardPage,
  tags: ['board'],
  summary: 'Add a board page (interval 30 s and weight 1 unless given)',
  description: '404 unknown region; 422 too many pages.',
});

export const boardPagePatch = endpoint({
  method: 'PATCH',
  path: '/api/board/pages/:id',
  params: IdParams,
  body: BoardPagePatch,
  response: BoardPage,
  tags: ['board'],
  summary: 'Change a board page: name, region, sub-regions, category, interval, weight, enabled',
});

export const boardPageWeight = endpoint({
  method: 'PATCH',
  path: '/api/board/pages/:id/weight',
  params: IdParams,
  body: BoardWeight,
  response: Type.Array(BoardPage),
  tags: ['board'],
  summary: "Set a page's weight (1–10); answers every page in the new order with the new shares",
});

export const boardPageDelete = endpoint({
  method: 'DELETE',
  path: '/api/board/pages/:id',
  params: IdParams,
  response: Ok,
  tags: ['board'],
  summary: 'Delete a board page with its components',
});

export const boardPageComponents = endpoint({
  method: 'GET',
  path: '/api/board/pages/:id/components',
  params: IdParams,
  response: Type.Array(BoardComponent),
  tags: ['board'],
  summary: "A board page's components, top to bottom",
});

export const boardComponentCreate = endpoint({
  method: 'POST',
  path: '/api/board/pages/:id/components',
  params: IdParams,
  body: BoardComponentInput,
  response: BoardComponent,
  tags: ['board'],
  summary: 'Add a component to a board page',
  description:
    '422 a chart without metrics or target, a bad formula, a metric the target lacks, too many components.',
});

export const boardComponentLayouts = endpoint({
  method: 'PUT',
  path: '/api/board/pages/:id/components',
  params: IdParams,
  body: BoardLayouts,
  response: Type.Array(BoardComponent),
  tags: ['board'],
  summary: 'Save the grid: the place of each listed component of the page, at once',
});

export const boardComponentPatch = endpoint({
  method: 'PATCH',
  path: '/api/board/pages/:pageId/components/:componentId',
  params: BoardComponentParams,
  body: BoardComponentPatch,
  response: BoardComponent,
  tags: ['board'],
  summary: 'Change a board component (any of its fields, its place included)',
});

export const boardComponentDelete = endpoint({
  method: 'DELETE',
  path: '/api/board/pages/:pageId/components/:componentId',
  params: BoardComponentParams,
  response: Ok,
  tags: ['board'],
  summary: 'Remove a component from a board page',
});
