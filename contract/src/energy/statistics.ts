import { type Static, Type } from 'typebox';
import { MAX_EPOCH_MS, RowId } from '../common.ts';
import { QueryComparison } from '../compare.ts';
import { endpoint } from '../endpoint.ts';
import { PERIODS, QUERY_AGGREGATORS } from '../query.ts';

/**
 * Energy statistics (spec §7 "Statistics and reports", issue 12): consumption and aggregates of
 * things, regions or filter groups over calendar periods of the plant, the running circle, and
 * the standard and ERP exports. See docs/statistics.md.
 */

const statisticsTags = ['statistics'];

/** Status metrics of the running circle (spec §9); they are never drawn as line series. */
export const CIRCLE_METRIC_NAMES = ['运行时长', '启动次数', '停机时长'] as const;
/** The circle's parts in its order (spec §3 totals circle). */
export const CIRCLE_KEYS = ['running', 'notRunning', 'startupTimes'] as const;
export type CircleKey = (typeof CIRCLE_KEYS)[number];
/** Top lists show this many rows at a time (spec §9). */
export const TOP_CHUNK = 10;
/** Numbers are shown and exported with this many decimals; the API answers them unrounded. */
export const STATISTICS_DECIMALS = 2;
/** Most series one statistics call may compare (things, regions or filters). */
export const MAX_STATISTICS_SERIES = 500;
/**
 * Most values one statistics read may compute: each thing behind the series (a region counts its
 * things) × buckets, twice with a comparison. A read is one pass of the server's event loop, so
 * this keeps it under ~100 ms (docs/statistics.md#limits).
 */
export const STATISTICS_MAX_CELLS = 100_000;
/** Most cells (rows × columns) of one ERP export; read and written in slices, it may take seconds. */
export const EXPORT_MAX_CELLS = 1_500_000;

// ---- statistics config --------------------------------------------------------------------------

export const STATISTICS_SCOPES = ['user', 'plant'] as const;
export type StatisticsScope = (typeof STATISTICS_SCOPES)[number];

/** Which metrics of one category the statistics screen offers, in this order. */
export const StatisticsConfigItem = Type.Object({
  categoryId: RowId,
  identifiers: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 50 }),
});
export type StatisticsConfigItem = Static<typeof StatisticsConfigItem>;

/** The identifiers the circle reads; absent ones are found by their names (CIRCLE_METRIC_NAMES). */
export const CircleMetrics = Type.Object({
  running: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  notRunning: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  startupTimes: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});
export type CircleMetrics = Static<typeof CircleMetrics>;

export const StatisticsConfig = Type.Object({
  /** Whose config answered: the user's own, the plant's, or none saved yet (`default`). */
  source: Type.Union([Type.Literal('user'), Type.Literal('plant'), Type.Literal('default')]),
  /** Empty: every cumulative ability of every category (the default). */
  items: Type.Array(StatisticsConfigItem),
  circle: CircleMetrics,
  updatedAt: Type.Union([Type.String(), Type.Null()]),
});
export type StatisticsConfig = Static<typeof StatisticsConfig>;

/** GET ?scope=plant&categoryId=1&categoryId=2 (arrays repeat the name, spec §7). */
export const StatisticsConfigQuery = Type.Object({
  /** `user` (default): the caller's own config, else the plant's; `plant`: the plant's only. */
  scope: Type.Optional(Type.Enum(STATISTICS_SCOPES)),
  /** Only these categories' items. */
  categoryId: Type.Optional(Type.Array(RowId, { maxItems: 100 })),
});

export const StatisticsConfigInput = Type.Object({
  scope: Type.Enum(STATISTICS_SCOPES),
  items: Type.Array(StatisticsConfigItem, { maxItems: 100 }),
  circle: Type.Optional(CircleMetrics),
});
export type StatisticsConfigInput = Static<typeof StatisticsConfigInput>;

/** Buckets a statistics query may ask for. */
export const STATISTICS_BUCKETS = ['hour', 'day', 'month', 'year'] as const;

// ---- range --------------------------------------------------------------------------------------

export const STATISTICS_TARGETS = ['thing', 'region', 'filterGroup'] as const;
export type StatisticsTarget = (typeof STATISTICS_TARGETS)[number];

/** POST /api/statistics/range: one metric of several things, regions or a filter group's filters. */
export const StatisticsQuery = Type.Object({
  /** One series per thing, per region (its things and its sub-regions' things), or per filter. */
  resourceType: Type.Enum(STATISTICS_TARGETS),
  /** Things or regions; for `filterGroup`, the group (one). */
  resourceIds: Type.Array(RowId, { minItems: 1, maxItems: MAX_STATISTICS_SERIES }),
  metricIdentifier: Type.String({ minLength: 1, maxLength: 64 }),
  /** Regions: only things of this category. */
  categoryId: Type.Optional(RowId),
  /** The calendar period shown (spec §3): a day by hours, a month by days, a year by months. */
  period: Type.Enum(PERIODS),
  /** A time inside the period (default now); with endTime, the range's start instead. */
  startTime: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_EPOCH_MS })),
  /** A free range [startTime, endTime) bucketed as `period` says (or by groupByTime). */
  endTime: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_EPOCH_MS })),
  /** Overrides the period's bucket (hour, day, month, year). */
  groupByTime: Type.Optional(Type.Enum(STATISTICS_BUCKETS)),
  /** Default: consumption (`delta`) for counters, the ability's own otherwise. */
  aggregator: Type.Optional(Type.Enum(QUERY_AGGREGATORS)),
  /** The same metric over a second range (year on year…), on the query service's one mechanism. */
  compare: Type.Optional(QueryComparison),
  /** Also answer the running circle of the things behind the series. */
  circle: Type.Optional(Type.Boolean()),
});
export type StatisticsQuery = Static<typeof StatisticsQuery>;

const Values = Type.Array(Type.Union([Type.Number(), Type.Null()]));

export const StatisticsSeries = Type.Object({
  /** `thing:3`, `region:2`, `filter:7`: stable across answers, for colours and selections. */
  key: Type.String(),
  name: Type.String(),
  resourceType: Type.Union([Type.Literal('thing'), Type.Literal('region')]),
  resourceId: Type.Integer(),
  /** The thing's identifier (empty for regions). */
  identifier: Type.String(),
  /** One per `keys` entry; null where nothing was recorded. */
  values: Values,
  /** Over the whole range: the sum for additive aggregators, else the aggregate of the values. */
  total: Type.Union([Type.Number(), Type.Null()]),
  /** False when the thing (or no thing of the region) has the metric: values are all null. */
  hasMetric: Type.Boolean(),
  compare: Type.Optional(Type.Object({ values: Values, total: Type.Union([Type.Number(), Type.Null()]) })),
});
export type StatisticsSeries = Static<typeof StatisticsSeries>;

export const RunningCircle = Type.Object({
  /** Hours run, hours stopped and startups over the range, summed over the things that report them. */
  running: Type.Number(),
  notRunning: Type.Number(),
  startupTimes: Type.Number(),
  /** How many things report at least one of the three. */
  things: Type.Integer(),
});
export type RunningCircle = Static<typeof RunningCircle>;

export const StatisticsResult = Type.Object({
  metricIdentifier: Type.String(),
  metricName: Type.String(),
  unit: Type.String(),
  aggregator: Type.String(),
  timeZone: Type.String(),
  startTime: Type.Number(),
  endTime: Type.Number(),
  groupByTime: Type.String(),
  /** Bucket starts (ms), oldest first. */
  keys: Type.Array(Type.Number()),
  /** Their labels in the plant zone (spec §9: YYYY-MM, MM-DD, HH:00). */
  labels: Type.Array(Type.String()),
  series: Type.Array(StatisticsSeries),
  /** The SUM line (spec §9) when the aggregator adds up (consumption, sum, count); else null. */
  total: Type.Union([
    Type.Object({
      values: Values,
      total: Type.Union([Type.Number(), Type.Null()]),
      compare: Type.Optional(
        Type.Object({ values: Values, total: Type.Union([Type.Number(), Type.Null()]) }),
      ),
    }),
    Type.Null(),
  ]),
  /** The comparison range read, when the query asked for one. */
  compare: Type.Optional(Type.Object({ startTime: Type.Number(), endTime: Type.Number() })),
  circle: Type.Optional(RunningCircle),
});
export type StatisticsResult = Static<typeof StatisticsResult>;

// ---- exports ------------------------------------------------------------------------------------

export const EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** Export types of the dialog (spec §4: the type defaults to standard). */
export const EXPORT_TYPES = ['standard', 'erp'] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

export const StatisticsExport = Type.Intersect([
  StatisticsQuery,
  Type.Object({ format: Type.Optional(Type.Enum(EXPORT_FORMATS)) }),
]);
export type StatisticsExport = Static<typeof StatisticsExport>;

/** The sys_configs identifier of the ERP export's configuration (read with GET /api/sysconfigs?identifier=erpConfig). */
export const ERP_CONFIG_IDENTIFIER = 'erpConfig';

/** Fields an ERP column can carry. */
export const ERP_FIELDS = [
  'code',
  'identifier',
  'name',
  'period',
  'start',
  'end',
  'metric',
  'consumption',
  'unit',
  'price',
  'cost',
  'currency',
  'costBasis',
] as const;
export type ErpField = (typeof ERP_FIELDS)[number];

/**
 * The ERP export's configuration, JSON in sys_configs under `erpConfig`: the columns in order
 * with their headers, the tariff that prices the cost (and the flat price per unit for what no
 * tariff covers), the currency, and the ERP's code of each thing by identifier (its cost centre
 * or meter no.).
 */
export const ErpConfig = Type.Object(
  {
    columns: Type.Array(
      Type.Object(
        { field: Type.Enum(ERP_FIELDS), header: Type.String({ minLength: 1, maxLength: 64 }) },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 30 },
    ),
    price: Type.Number({ minimum: 0, maximum: 1e9 }),
    currency: Type.String({ maxLength: 8 }),
    sheetName: Type.String({ minLength: 1, maxLength: 31 }),
    codes: Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 64 })),
    /** The tariff that prices the cost (docs/statistics.md#erp); `price` stays the fallback. */
    tariffId: Type.Optional(Type.Union([RowId, Type.Null()])),
    /** Another tariff for some things, by identifier. */
    tariffs: Type.Optional(Type.Record(Type.String({ maxLength: 64 }), RowId)),
  },
  { additionalProperties: false },
);
export type ErpConfig = Static<typeof ErpConfig>;

export const sysConfigErpGet = endpoint({
  method: 'GET',
  path: '/api/sysconfigs/erp',
  response: ErpConfig,
  tags: ['system'],
  summary: "The ERP export's configuration (erpConfig), the default while none is saved",
});

export const sysConfigErpSave = endpoint({
  method: 'PUT',
  path: '/api/sysconfigs/erp',
  body: ErpConfig,
  response: ErpConfig,
  tags: ['system'],
  summary: "Save the ERP export's configuration (erpConfig), created when missing",
  description: '404 a tariff (tariffId or tariffs) that does not exist.',
});

// ---- endpoints ----------------------------------------------------------------------------------

export const statisticsConfigGet = endpoint({
  method: 'GET',
  path: '/api/statistics/configs/config',
  querystring: StatisticsConfigQuery,
  response: StatisticsConfig,
  tags: statisticsTags,
  summary: "Which metrics the statistics screen offers: the caller's config, else the plant's",
});

export const statisticsConfigSave = endpoint({
  method: 'PUT',
  path: '/api/statistics/configs/config',
  body: StatisticsConfigInput,
  response: StatisticsConfig,
  tags: statisticsTags,
  summary: "Replace the caller's (scope user) or the plant's (scope plant) statistics config",
  description:
    'Scope plant needs a grant of /analysis/report. 404 unknown category; 422 an identifier that is not an ability of its category, or a category listed twice.',
});

export const statisticsRange = endpoint({
  method: 'POST',
  path: '/api/statistics/range',
  body: StatisticsQuery,
  response: StatisticsResult,
  tags: statisticsTags,
  summary: 'Consumption (or another aggregate) per thing, region or filter, by hour, day or month',
  description:
    'See docs/statistics.md. Counters answer consumption with resets handled; compare reads a second range on the same buckets; the total is the SUM line. Values are not rounded. 400 bad range; 404 unknown thing, region or filter group; 422 metric unknown to every series.',
});

export const statisticsOutput = endpoint({
  method: 'POST',
  path: '/api/statistics/output',
  body: StatisticsExport,
  tags: statisticsTags,
  summary: 'The standard export of a statistics query: xlsx (default) or CSV',
  description:
    'One row per series, one column per period, a total column and a SUM row; numbers with 2 decimals, the unit in the header, times in the plant zone, headers in the Accept-Language language. Streams: X-Export-Rows gives the rows to expect.',
  produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/csv'],
});

export const statisticsErpXlsx = endpoint({
  method: 'POST',
  path: '/api/statistics/report/erp/xlsx',
  body: StatisticsExport,
  tags: statisticsTags,
  summary: 'The ERP export: one row per thing and period, columns as the erpConfig setting maps them',
  description:
    'Regions and filters expand to their things. Cost is priced by the tariff erpConfig names (by band and dated version), else by its flat price; the costBasis column and the notes sheet say which. Streams: X-Export-Rows gives the rows to expect; an error after the first byte cuts the download short.',
  produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/csv'],
});
