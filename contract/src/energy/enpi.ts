import { type Static, Type } from 'typebox';
import { IdParams, Ok, RowId } from '../common.ts';
import { endpoint } from '../endpoint.ts';
import { LocalDate } from './tariffs.ts';

/**
 * Energy performance indicators and baselines (ISO 50006; issue 12, docs/enpi.md): energy per unit
 * of output per day, week or month on the plant calendar, and a baseline normalised by ordinary
 * least squares of energy on production and degree days, with the savings against it.
 */

const enpiTags = ['enpi'];

/** The periods of an EnPI: local days, ISO weeks (Monday first), calendar months. */
export const ENPI_PERIODS = ['day', 'week', 'month'] as const;
export type EnpiPeriod = (typeof ENPI_PERIODS)[number];

/** What energy and a metered output are read from (as the statistics read them). */
export const ENPI_TARGETS = ['thing', 'region', 'filterGroup'] as const;

/** Regression variables a baseline may use. */
export const ENPI_VARIABLES = ['output', 'hdd', 'cdd'] as const;
export type EnpiVariable = (typeof ENPI_VARIABLES)[number];

/**
 * Adequacy thresholds of a baseline model (docs/enpi.md): R² at least 0.75; CV(RMSE) at most
 * 15 % on monthly data and 25 % on weekly or daily data (ASHRAE Guideline 14 asks 15 % monthly,
 * 30 % hourly; days and weeks sit between).
 */
export const ENPI_R2_MIN = 0.75;
export const ENPI_CVRMSE_MAX: Record<EnpiPeriod, number> = { month: 0.15, week: 0.25, day: 0.25 };
/** A fit needs this many more points than it has parameters (intercept included). */
export const ENPI_EXTRA_POINTS = 2;
/** Longest range one report covers (baseline included), in days: ten years. */
export const ENPI_MAX_DAYS = 3660;

const Identifier = Type.String({ minLength: 1, maxLength: 64 });

/** A metric of a thing, a region (its things, recursively) or a filter group, summed per period. */
export const EnpiSource = Type.Object({
  resourceType: Type.Enum(ENPI_TARGETS),
  resourceId: RowId,
  metricIdentifier: Identifier,
  /** Regions: only things of this category. */
  categoryId: Type.Optional(RowId),
});
export type EnpiSource = Static<typeof EnpiSource>;

/** Output: the consumption of a production counter, or values entered per period. */
export const EnpiOutput = Type.Union([
  Type.Object({ kind: Type.Literal('metric'), source: EnpiSource }),
  Type.Object({ kind: Type.Literal('entered') }),
]);
export type EnpiOutput = Static<typeof EnpiOutput>;

const Temperature = Type.Number({ minimum: -50, maximum: 60 });
/**
 * The outdoor temperature (a thing's metric, daily mean) and the base temperatures of heating and
 * cooling degree days: HDD = Σ max(0, heatingBase − mean), CDD = Σ max(0, mean − coolingBase).
 */
export const EnpiTemperature = Type.Object({
  thingId: RowId,
  metricIdentifier: Identifier,
  heatingBase: Type.Union([Temperature, Type.Null()]),
  coolingBase: Type.Union([Temperature, Type.Null()]),
});
export type EnpiTemperature = Static<typeof EnpiTemperature>;

export const EnpiFields = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 64 }),
  description: Type.Optional(Type.String({ maxLength: 200 })),
  energy: EnpiSource,
  output: EnpiOutput,
  /** What output is counted in (件, t, m³); shown beside the EnPI as kWh/件. */
  outputUnit: Type.String({ maxLength: 16 }),
  temperature: Type.Union([EnpiTemperature, Type.Null()]),
  period: Type.Enum(ENPI_PERIODS),
  /** The baseline period, local dates inclusive. */
  baselineStart: LocalDate,
  baselineEnd: LocalDate,
  /** What the baseline regresses energy on (at least one). */
  variables: Type.Array(Type.Enum(ENPI_VARIABLES), { minItems: 1, maxItems: 3, uniqueItems: true }),
});
export type EnpiInput = Static<typeof EnpiFields>;

export const Enpi = Type.Intersect([
  EnpiFields,
  Type.Object({
    id: Type.Integer(),
    description: Type.String(),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  }),
]);
export type Enpi = Static<typeof Enpi>;

/** One entered output: the period by its first local day. */
export const EnpiOutputEntry = Type.Object({
  period: LocalDate,
  value: Type.Number({ minimum: 0, maximum: 1e12 }),
});
export type EnpiOutputEntry = Static<typeof EnpiOutputEntry>;

export const EnpiOutputParams = Type.Object({ id: RowId, period: LocalDate });

/** A report's range: local dates inclusive; default from the baseline's start to today. */
export const EnpiReportQuery = Type.Object({
  from: Type.Optional(LocalDate),
  to: Type.Optional(LocalDate),
});
export type EnpiReportQuery = Static<typeof EnpiReportQuery>;

const Num = Type.Union([Type.Number(), Type.Null()]);

/** Why a period has no EnPI. */
export const ENPI_GAPS = ['noEnergy', 'noOutput', 'zeroOutput'] as const;
export type EnpiGap = (typeof ENPI_GAPS)[number];

export const EnpiPeriodRow = Type.Object({
  /** First local day of the period. */
  period: LocalDate,
  /** `YYYY-MM-DD` (days, weeks) or `YYYY-MM` (months). */
  label: Type.String(),
  startTime: Type.Number(),
  endTime: Type.Number(),
  energy: Num,
  output: Num,
  /** energy / output; null when output is 0 or either is missing (`gap` says which). */
  enpi: Num,
  gap: Type.Union([Type.Enum(ENPI_GAPS), Type.Null()]),
  hdd: Num,
  cdd: Num,
  inBaseline: Type.Boolean(),
  /** Energy the baseline model expects for this period's variables; null without a model or a variable. */
  expected: Num,
  /** expected − actual: positive is energy saved. */
  savings: Num,
  /** Running sum of the savings over the periods after the baseline (CUSUM); null inside it. */
  cusum: Num,
});
export type EnpiPeriodRow = Static<typeof EnpiPeriodRow>;

export const EnpiModel = Type.Object({
  variables: Type.Array(Type.Enum(ENPI_VARIABLES)),
  intercept: Type.Number(),
  /** One per variable, in `variables` order. */
  coefficients: Type.Array(Type.Number()),
  n: Type.Integer(),
  r2: Type.Number(),
  /** CV(RMSE) as a fraction: √(SSE / (n − p)) / mean energy. */
  cvrmse: Type.Number(),
  adequate: Type.Boolean(),
  r2Min: Type.Number(),
  cvrmseMax: Type.Number(),
});
export type EnpiModel = Static<typeof EnpiModel>;

export const EnpiReport = Type.Object({
  enpi: Enpi,
  timeZone: Type.String(),
  energyUnit: Type.String(),
  periods: Type.Array(EnpiPeriodRow),
  model: Type.Union([EnpiModel, Type.Null()]),
  /** Why there is no model (too few points, a variable that does not vary…), in the caller's language. */
  modelError: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()]),
  /** Sums over the periods after the baseline. */
  totals: Type.Object({ energy: Num, expected: Num, savings: Num }),
});
export type EnpiReport = Static<typeof EnpiReport>;

/** A source to list the abilities of (the metric picker's). */
export const EnpiAbilitiesQuery = Type.Object({
  resourceType: Type.Enum(ENPI_TARGETS),
  resourceId: RowId,
});
export type EnpiAbilitiesQuery = Static<typeof EnpiAbilitiesQuery>;

/**
 * A numeric ability some thing of the source has: its name and unit as the things' models say
 * (the first thing's when they differ), whether it is a counter, and how many of the things have it.
 */
export const EnpiAbility = Type.Object({
  identifier: Type.String(),
  name: Type.String(),
  unit: Type.String(),
  cumulative: Type.Boolean(),
  things: Type.Integer(),
});
export type EnpiAbility = Static<typeof EnpiAbility>;

// ---- endpoints ----------------------------------------------------------------------------------

export const enpiAbilities = endpoint({
  method: 'GET',
  path: '/api/enpi/abilities',
  querystring: EnpiAbilitiesQuery,
  response: Type.Array(EnpiAbility),
  tags: enpiTags,
  summary: "The numeric abilities of a thing, a region's things or a filter group's, for the metric picker",
  description: '404 unknown thing, region or filter group.',
});

export const enpiList = endpoint({
  method: 'GET',
  path: '/api/enpi',
  response: Type.Array(Enpi),
  tags: enpiTags,
  summary: 'EnPI definitions',
});

export const enpiGet = endpoint({
  method: 'GET',
  path: '/api/enpi/:id',
  params: IdParams,
  response: Enpi,
  tags: enpiTags,
  summary: 'One EnPI definition',
});

export const enpiCreate = endpoint({
  method: 'POST',
  path: '/api/enpi',
  body: EnpiFields,
  response: Enpi,
  tags: enpiTags,
  summary: 'Define an EnPI',
  description:
    '409 a name taken; 422 a metric the target lacks, a baseline ending before it starts, degree days without a temperature or base.',
});

export const enpiUpdate = endpoint({
  method: 'PUT',
  path: '/api/enpi/:id',
  params: IdParams,
  body: EnpiFields,
  response: Enpi,
  tags: enpiTags,
  summary: 'Change an EnPI definition',
});

export const enpiDelete = endpoint({
  method: 'DELETE',
  path: '/api/enpi/:id',
  params: IdParams,
  response: Ok,
  tags: enpiTags,
  summary: 'Delete an EnPI and its entered outputs',
});

export const enpiOutputList = endpoint({
  method: 'GET',
  path: '/api/enpi/:id/outputs',
  params: IdParams,
  response: Type.Array(EnpiOutputEntry),
  tags: enpiTags,
  summary: 'Entered outputs, oldest first',
});

export const enpiOutputPut = endpoint({
  method: 'PUT',
  path: '/api/enpi/:id/outputs/:period',
  params: EnpiOutputParams,
  body: Type.Object({ value: EnpiOutputEntry.properties.value }),
  response: EnpiOutputEntry,
  tags: enpiTags,
  summary: 'Enter (or correct) the output of one period',
  description:
    "422 a date that does not start one of the EnPI's periods, or an EnPI whose output is metered.",
});

export const enpiOutputDelete = endpoint({
  method: 'DELETE',
  path: '/api/enpi/:id/outputs/:period',
  params: EnpiOutputParams,
  response: Ok,
  tags: enpiTags,
  summary: "Remove one period's entered output",
});

export const enpiReport = endpoint({
  method: 'GET',
  path: '/api/enpi/:id/report',
  params: IdParams,
  querystring: EnpiReportQuery,
  response: EnpiReport,
  tags: enpiTags,
  summary: 'EnPI per period, the baseline model, expected energy, savings and CUSUM',
});
