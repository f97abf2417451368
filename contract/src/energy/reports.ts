import { type Static, type TSchema, Type } from 'typebox';
import type { PlantCalendar } from '../calendar.ts';
import { IdParams, MAX_EPOCH_MS, MAX_ID, Ok, RowId } from '../common.ts';
import type { QueryComparison } from '../compare.ts';
import { endpoint } from '../endpoint.ts';
import { GROUP_BY_TIMES, type MetricQuery, PERIODS, QUERY_AGGREGATORS } from '../query.ts';
import { PERIOD_BUCKET } from './periods.ts';

/**
 * KPI reports (spec §2 /analysis/kpi, §3 report and report component, §7 /api/reports, §9
 * year-on-year options): a tree of folders and reports; a report holds components laid out on a
 * 12-column grid, each a chart of one or more metrics of a thing or region over the report's
 * period, with a comparison computed by the telemetry query (`compare`, compare.ts).
 */

/** The tree's root: `POST /api/reports/0/children` creates a top-level folder or report. */
export const REPORT_ROOT = 0;
/** Deepest level of the tree (a top-level node is level 1). */
export const REPORT_MAX_DEPTH = 8;
/** Columns of the component grid. */
export const REPORT_GRID_COLS = 12;
/** Metrics one component may draw. */
export const REPORT_MAX_METRICS = 8;
/** Components one report may hold. */
export const REPORT_MAX_COMPONENTS = 50;

export const CHART_TYPES = ['line', 'pie', 'bar', 'bar-accumulation', 'operation'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

/**
 * Comparisons a component offers (spec §9 plus issue 12): yesterday −24 h, last week −168 h,
 * month on month, year on year, the period holding a chosen date, and a base period that starts
 * at a chosen time and runs as long as the reporting period.
 */
export const REPORT_COMPARISONS = [
  'none',
  'yesterday',
  'lastWeek',
  'monthOnMonth',
  'yearOnYear',
  'date',
  'base',
] as const;
export type ReportComparison = (typeof REPORT_COMPARISONS)[number];

export interface ReportNode {
  id: number;
  parentId: number | null;
  name: string;
  /** A folder holds folders and reports; a report holds components. */
  folder: boolean;
  report: boolean;
  /** Published reports are read-only for everyone but admins and keep their link. */
  published: boolean;
  publishedAt: number | null;
  level: number;
  sort: number;
  children: ReportNode[];
}

const NodeFields = {
  id: Type.Integer(),
  parentId: Type.Union([Type.Integer(), Type.Null()]),
  name: Type.String(),
  folder: Type.Boolean(),
  report: Type.Boolean(),
  published: Type.Boolean(),
  publishedAt: Type.Union([Type.Number(), Type.Null()]),
  level: Type.Integer(),
  sort: Type.Integer(),
};
function nodeSchema(depth: number): TSchema {
  return Type.Object({
    ...NodeFields,
    children: depth <= 0 ? Type.Array(Type.Unknown(), { maxItems: 0 }) : Type.Array(nodeSchema(depth - 1)),
  });
}
export const ReportNodeSchema = Type.Unsafe<ReportNode>(nodeSchema(REPORT_MAX_DEPTH));

const Name = Type.String({ minLength: 1, maxLength: 64 });

/** POST /api/reports/{id}/children: `id` is the parent folder, 0 for the top level. */
export const ReportChildInput = Type.Object({
  name: Name,
  folder: Type.Boolean(),
});
export type ReportChildInput = Static<typeof ReportChildInput>;

/** PATCH /api/reports/{id}: rename, move (parentId 0 or null = top level) or reorder. */
export const ReportPatch = Type.Object({
  name: Type.Optional(Name),
  parentId: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: MAX_ID }), Type.Null()])),
  sort: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
});
export type ReportPatch = Static<typeof ReportPatch>;

/** POST /api/reports/{id}/publish: `published: false` takes it back (admins only). */
export const ReportPublish = Type.Object({
  published: Type.Optional(Type.Boolean()),
});

export const ReportParentParams = Type.Object({ id: Type.Integer({ minimum: 0, maximum: MAX_ID }) });

// ---- components ----------------------------------------------------------------------------------

/** The component's comparison: `time` is the chosen date (`date`) or the base period's start (`base`). */
export const ComponentYoy = Type.Object({
  option: Type.Enum(REPORT_COMPARISONS),
  time: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: MAX_EPOCH_MS }), Type.Null()])),
  /** Month-on-month, year-on-year, date and base comparisons start on the same weekday. */
  align: Type.Optional(Type.Boolean()),
});
export type ComponentYoy = Static<typeof ComponentYoy>;

/** What the component looks at: a thing or a region (with its descendants). */
export const ComponentParams = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 64 })),
  identifier: Type.Optional(Type.String({ maxLength: 64 })),
  regionId: Type.Optional(Type.Union([RowId, Type.Null()])),
  thingId: Type.Optional(Type.Union([RowId, Type.Null()])),
});
export type ComponentParams = Static<typeof ComponentParams>;

export const ComponentMetric = Type.Object({
  categoryId: Type.Optional(Type.Union([RowId, Type.Null()])),
  identifier: Type.String({ minLength: 1, maxLength: 64 }),
  name: Type.String({ maxLength: 64 }),
  /** How values combine in a bucket: an aggregator, or `delta` for a counter's consumption. */
  statistics: Type.Enum(QUERY_AGGREGATORS),
  /** Bucket unit; absent: the report period's (a day by hours, a month by days, a year by months). */
  groupByTime: Type.Optional(Type.Union([Type.Enum(GROUP_BY_TIMES), Type.Null()])),
  groupByInterval: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 1000 }), Type.Null()])),
  /** Arithmetic on each value `x` (+ - * / and parentheses), e.g. "x / 1000". */
  formula: Type.Optional(Type.String({ maxLength: 200 })),
  /** Decimal places after the formula. */
  scale: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 10 }), Type.Null()])),
  unit: Type.Optional(Type.String({ maxLength: 32 })),
});
export type ComponentMetric = Static<typeof ComponentMetric>;

/** Place on the 12-column grid, in columns and rows. */
export const ComponentLayout = Type.Object({
  x: Type.Integer({ minimum: 0, maximum: REPORT_GRID_COLS - 1 }),
  y: Type.Integer({ minimum: 0, maximum: 10_000 }),
  w: Type.Integer({ minimum: 1, maximum: REPORT_GRID_COLS }),
  h: Type.Integer({ minimum: 1, maximum: 40 }),
});
export type ComponentLayout = Static<typeof ComponentLayout>;

/**
 * A grid component's fields after its id and its owner's (`reportId` here, `pageId` on the board,
 * board.ts), for the chart types the owner allows: one shape for both grids.
 */
export const gridComponentFields = <V extends string[]>(chartTypes: readonly [...V]) => ({
  title: Type.String(),
  chartType: Type.Enum(chartTypes),
  yoy: ComponentYoy,
  params: ComponentParams,
  metrics: Type.Array(ComponentMetric),
  layout: ComponentLayout,
  updatedAt: Type.Number(),
});

/**
 * What a grid component is created with. `params` is the thing or region looked at; `metrics`
 * holds at most REPORT_MAX_METRICS, and at least `minMetrics` (a report's chart 1; the board's
 * device tiles may name none). Absent `layout`: below the others, half the width.
 */
export const gridComponentInput = <V extends string[]>(chartTypes: readonly [...V], minMetrics: number) =>
  Type.Object({
    title: Name,
    chartType: Type.Enum(chartTypes),
    yoy: Type.Optional(ComponentYoy),
    params: ComponentParams,
    metrics: Type.Array(ComponentMetric, {
      ...(minMetrics > 0 ? { minItems: minMetrics } : {}),
      maxItems: REPORT_MAX_METRICS,
    }),
    layout: Type.Optional(ComponentLayout),
  });

/** PUT …/components of either grid: the grid after a drag or resize, every moved component at once. */
export const GridLayouts = Type.Array(Type.Object({ id: RowId, layout: ComponentLayout }), {
  maxItems: REPORT_MAX_COMPONENTS,
});

export const ReportComponent = Type.Object({
  id: Type.Integer(),
  reportId: Type.Integer(),
  ...gridComponentFields(CHART_TYPES),
});
export type ReportComponent = Static<typeof ReportComponent>;

export const ReportComponentInput = gridComponentInput(CHART_TYPES, 1);
export type ReportComponentInput = Static<typeof ReportComponentInput>;

export const ReportComponentPatch = Type.Partial(ReportComponentInput);
export type ReportComponentPatch = Static<typeof ReportComponentPatch>;

export const ReportLayouts = GridLayouts;
export type ReportLayouts = Static<typeof ReportLayouts>;

export const ReportComponentsQuery = Type.Object({ categoryId: Type.Optional(RowId) });
export const ReportComponentParams = Type.Object({ reportId: RowId, componentId: RowId });

/** POST /api/statistics/report/output: the report over one period of the plant calendar. */
export const ReportOutputInput = Type.Object({
  reportId: RowId,
  period: Type.Enum(PERIODS),
  /** Any time inside the period (ms); default now. */
  time: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_EPOCH_MS })),
});
export type ReportOutputInput = Static<typeof ReportOutputInput>;

/**
 * The telemetry query's `compare` of a component's comparison over the reporting period
 * [start, end) of `period`: the one place the console and the xlsx export turn an option into a
 * comparison, which the server then computes on the plant calendar.
 * @example componentCompare({ option: 'lastWeek' }, 'day', range, calendar) // { shift: { amount: -168, unit: 'hour' } }
 */
export function componentCompare(
  yoy: ComponentYoy | undefined,
  period: (typeof PERIODS)[number],
  range: { start: number; end: number },
  calendar: PlantCalendar,
): QueryComparison | null {
  const align = yoy?.align ? { align: 'weekday' as const } : {};
  switch (yoy?.option ?? 'none') {
    case 'yesterday':
      return { shift: { amount: -24, unit: 'hour' } };
    case 'lastWeek':
      return { shift: { amount: -168, unit: 'hour' } };
    case 'monthOnMonth':
      return { shift: { amount: -1, unit: 'month' }, ...align };
    case 'yearOnYear':
      return { shift: { amount: -1, unit: 'year' }, ...align };
    case 'date': {
      if (yoy?.time == null) return null;
      const at = calendar.periodRange(period, yoy.time).start;
      return at === range.start ? null : { startTime: at, ...align };
    }
    case 'base': {
      if (yoy?.time == null) return null;
      const at = calendar.startOfDay(yoy.time);
      return at === range.start ? null : { startTime: at, ...align };
    }
    default:
      return null;
  }
}

/**
 * The telemetry queries of a component over the period of the plant calendar that holds `time`:
 * one per metric, with the comparison. The console's charts and the xlsx export both ask these,
 * so they show the same numbers. Null when the component names no thing or region.
 */
export function componentQueries(
  component: Pick<ReportComponent, 'params' | 'metrics' | 'yoy'>,
  period: (typeof PERIODS)[number],
  time: number,
  calendar: PlantCalendar,
  /** A stretch other than the period holding `time` (a scheduled week, by the month's day buckets). */
  within?: { start: number; end: number },
): MetricQuery[] | null {
  const { thingId, regionId } = component.params;
  const target =
    thingId != null
      ? { resourceType: 'thing' as const, resourceId: thingId }
      : regionId != null
        ? { resourceType: 'region' as const, resourceId: regionId, successor: true }
        : null;
  if (!target) return null;
  const range = within ?? calendar.periodRange(period, time);
  const compare = componentCompare(component.yoy, period, range, calendar);
  return component.metrics.map((m) => ({
    ...target,
    ...(target.resourceType === 'region' && m.categoryId != null ? { categoryId: m.categoryId } : {}),
    metricIdentifier: m.identifier,
    metricName: m.name || m.identifier,
    aggregator: m.statistics,
    groupByTime: m.groupByTime ?? PERIOD_BUCKET[period],
    groupByInterval: m.groupByInterval ?? 1,
    startTime: range.start,
    endTime: range.end,
    ...(m.formula?.trim() ? { formula: m.formula } : {}),
    ...(m.scale != null ? { scale: m.scale } : {}),
    ...(m.unit ? { unit: m.unit } : {}),
    ...(compare ? { compare } : {}),
  }));
}

// ---- endpoints -----------------------------------------------------------------------------------

export const reportTree = endpoint({
  method: 'GET',
  path: '/api/reports',
  response: Type.Array(ReportNodeSchema),
  tags: ['reports'],
  summary: 'The report tree: folders and reports, by position',
});

export const reportCreateChild = endpoint({
  method: 'POST',
  path: '/api/reports/:id/children',
  params: ReportParentParams,
  body: ReportChildInput,
  response: ReportNodeSchema,
  tags: ['reports'],
  summary: 'Create a folder or report in folder {id} (0: at the top level)',
  description: '404 unknown folder; 422 the parent is a report, or the tree would be too deep.',
});

export const reportPatch = endpoint({
  method: 'PATCH',
  path: '/api/reports/:id',
  params: IdParams,
  body: ReportPatch,
  response: ReportNodeSchema,
  tags: ['reports'],
  summary: 'Rename, move or reorder a folder or report',
  description: '422 moving into itself, a descendant or a report; 409 a published report (admins excepted).',
});

export const reportDelete = endpoint({
  method: 'DELETE',
  path: '/api/reports/:id',
  params: IdParams,
  response: Type.Object({ ok: Type.Literal(true), deleted: Type.Integer() }),
  tags: ['reports'],
  summary: 'Delete a folder or report with everything under it',
  description: '409 when it holds a published report and the caller is not an admin.',
});

export const reportPublish = endpoint({
  method: 'POST',
  path: '/api/reports/:id/publish',
  params: IdParams,
  body: ReportPublish,
  response: ReportNodeSchema,
  tags: ['reports'],
  summary: 'Publish a report (read-only for editors, stable link); `published: false` takes it back (admins)',
});

export const reportComponentList = endpoint({
  method: 'GET',
  path: '/api/reports/:id/components',
  params: IdParams,
  querystring: ReportComponentsQuery,
  response: Type.Array(ReportComponent),
  tags: ['reports'],
  summary: "A report's components (with categoryId: those with a metric of that category)",
});

export const reportComponentCreate = endpoint({
  method: 'POST',
  path: '/api/reports/:id/components',
  params: IdParams,
  body: ReportComponentInput,
  response: ReportComponent,
  tags: ['reports'],
  summary: 'Add a component to a report',
  description: '422 a folder, a bad formula, no thing or region; 409 a published report (admins excepted).',
});

export const reportComponentLayouts = endpoint({
  method: 'PUT',
  path: '/api/reports/:id/components',
  params: IdParams,
  body: ReportLayouts,
  response: Type.Array(ReportComponent),
  tags: ['reports'],
  summary: 'Save the grid: the place of each listed component of the report, at once',
});

export const reportComponentPatch = endpoint({
  method: 'PATCH',
  path: '/api/reports/:reportId/components/:componentId',
  params: ReportComponentParams,
  body: ReportComponentPatch,
  response: ReportComponent,
  tags: ['reports'],
  summary: 'Change a component (any of its fields, its place included)',
});

export const reportComponentDelete = endpoint({
  method: 'DELETE',
  path: '/api/reports/:reportId/components/:componentId',
  params: ReportComponentParams,
  response: Ok,
  tags: ['reports'],
  summary: 'Remove a component from a report',
});

export const reportOutput = endpoint({
  method: 'POST',
  path: '/api/statistics/report/output',
  body: ReportOutputInput,
  response: Type.Unsafe<Blob>({ description: 'The report as xlsx', type: 'string', format: 'binary' }),
  raw: true,
  tags: ['reports'],
  summary: 'A report over a period as xlsx: one sheet per component, its series and comparison',
  produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
});
