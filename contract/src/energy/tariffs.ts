import { type Static, Type } from 'typebox';
import { IdParams, MAX_EPOCH_MS, Ok, RowId } from '../common.ts';
import { endpoint } from '../endpoint.ts';
import { PERIODS, ResourceTypeSchema } from '../query.ts';

/**
 * Time-of-use tariffs (issue 12; docs/tariffs.md): a tariff is a calendar, not a price table. It
 * has dated versions (each valid from a local date of the plant's zone until the next one); a
 * version has seasons (month-day ranges), and for each season and day type (working day, weekend,
 * holiday) the bands of the day by hour and minute, priced per kWh per band; plus a demand or
 * capacity charge and the power-factor target of the adjustment. Costs are computed on read from
 * the versions; see docs/tariffs.md for why the past's cost still never changes by accident.
 */

/** 尖 峰 平 谷 深谷, dearest first. */
export const BAND_KINDS = ['tip', 'peak', 'flat', 'valley', 'deepValley'] as const;
export type BandKind = (typeof BAND_KINDS)[number];

export const DAY_TYPES = ['workday', 'weekend', 'holiday'] as const;
export type DayType = (typeof DAY_TYPES)[number];

/** Targets of the 1983 power-factor adjustment tables (docs/tariffs.md). */
export const PF_TARGETS = [0.9, 0.85, 0.8] as const;
export type PfTarget = (typeof PF_TARGETS)[number];

/** A local date `YYYY-MM-DD`. */
export const LocalDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
/** A month and day `MM-DD` (02-29 included: a leap day belongs to a season too). */
export const MonthDay = Type.String({ pattern: '^\\d{2}-\\d{2}$' });
/** A wall-clock time `HH:mm`; `24:00` ends a day. */
export const TimeOfDay = Type.String({ pattern: '^(([01]\\d|2[0-3]):[0-5]\\d|24:00)$' });

/** One band of a day: [from, to) in wall-clock time; a band over midnight is two spans. */
export const BandSpan = Type.Object({
  band: Type.Enum(BAND_KINDS),
  from: TimeOfDay,
  to: TimeOfDay,
});
export type BandSpan = Static<typeof BandSpan>;

const Spans = Type.Array(BandSpan, { minItems: 1, maxItems: 48 });

/** A season: the month-days [from, to] (inclusive; from after to wraps over the new year). */
export const Season = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 32 }),
  from: MonthDay,
  to: MonthDay,
  workday: Spans,
  weekend: Spans,
  holiday: Spans,
});
export type Season = Static<typeof Season>;

const Price = Type.Number({ minimum: 0, maximum: 1000 });
/** Price per kWh of each band, in the plant's currency; a band the schedules use needs one. */
export const BandPrices = Type.Object({
  tip: Type.Optional(Price),
  peak: Type.Optional(Price),
  flat: Type.Optional(Price),
  valley: Type.Optional(Price),
  deepValley: Type.Optional(Price),
});
export type BandPrices = Static<typeof BandPrices>;

/**
 * How the demand meter windows the month (docs/tariffs.md "Maximum demand"): `fixed`, the clock's
 * quarter hours (00:00–00:15, 00:15–00:30, …); `sliding`, every 15 minutes starting on a minute (the
 * meter's "slip" mode).
 */
export const DEMAND_WINDOW_MODES = ['fixed', 'sliding'] as const;
export type DemandWindowMode = (typeof DEMAND_WINDOW_MODES)[number];
export const DemandWindowModeSchema = Type.Enum(DEMAND_WINDOW_MODES);

/**
 * The monthly fixed part: per kW of the month's highest 15-minute average power (需量电费), per kVA
 * of contracted capacity (容量电费), or none. A demand charge's `window` is `fixed` when left out.
 */
export const DemandCharge = Type.Union([
  Type.Object({ kind: Type.Literal('none') }),
  Type.Object({
    kind: Type.Literal('demand'),
    pricePerKw: Type.Number({ minimum: 0, maximum: 10_000 }),
    window: Type.Optional(DemandWindowModeSchema),
  }),
  Type.Object({
    kind: Type.Literal('capacity'),
    pricePerKva: Type.Number({ minimum: 0, maximum: 10_000 }),
    capacityKva: Type.Number({ exclusiveMinimum: 0, maximum: 10_000_000 }),
  }),
]);
export type DemandCharge = Static<typeof DemandCharge>;

export const PfTargetSchema = Type.Union([
  Type.Literal(0.9),
  Type.Literal(0.85),
  Type.Literal(0.8),
  Type.Null(),
]);

/** What a version holds (without its id and stamps). */
export const TariffVersionBody = Type.Object({
  validFrom: LocalDate,
  note: Type.Optional(Type.String({ maxLength: 200 })),
  prices: BandPrices,
  seasons: Type.Array(Season, { minItems: 1, maxItems: 12 }),
  demand: DemandCharge,
  powerFactorTarget: PfTargetSchema,
});
export type TariffVersionBody = Static<typeof TariffVersionBody>;

/**
 * A version to write. `retroactive` must be true to create, change or delete a version that has
 * already started (valid from today or earlier in the plant's zone): the answer then names the
 * range whose costs it recomputes.
 */
export const TariffVersionInput = Type.Intersect([
  TariffVersionBody,
  Type.Object({ retroactive: Type.Optional(Type.Boolean()) }),
]);
export type TariffVersionInput = Static<typeof TariffVersionInput>;

export const TariffVersion = Type.Intersect([
  TariffVersionBody,
  Type.Object({ id: Type.Integer(), tariffId: Type.Integer(), createdAt: Type.String() }),
]);
export type TariffVersion = Static<typeof TariffVersion>;

/** ISO weekdays 1 (Monday) … 7 (Sunday). */
const Weekday = Type.Integer({ minimum: 1, maximum: 7 });

export const TariffFields = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 64 }),
  description: Type.Optional(Type.String({ maxLength: 200 })),
  /** Days priced as holidays (法定节假日). */
  holidays: Type.Array(LocalDate, { maxItems: 400 }),
  /** Weekend days that are working days (调休上班日). */
  workdays: Type.Array(LocalDate, { maxItems: 400 }),
  /** Which weekdays are the weekend (default Saturday and Sunday). */
  weekendDays: Type.Array(Weekday, { maxItems: 7 }),
});

export const Tariff = Type.Intersect([
  TariffFields,
  Type.Object({
    id: Type.Integer(),
    description: Type.String(),
    /** Oldest first. */
    versions: Type.Array(TariffVersion),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  }),
]);
export type Tariff = Static<typeof Tariff>;

/** A new tariff and its first version. */
export const TariffCreate = Type.Intersect([TariffFields, Type.Object({ version: TariffVersionInput })]);
export type TariffCreate = Static<typeof TariffCreate>;

/** Name, description and the day lists; changing a started day's type needs `retroactive`. */
export const TariffUpdate = Type.Intersect([
  TariffFields,
  Type.Object({ retroactive: Type.Optional(Type.Boolean()) }),
]);
export type TariffUpdate = Static<typeof TariffUpdate>;

/** A write's answer: the tariff as it is now, and the past range whose costs changed, if any. */
export const TariffWriteResult = Type.Object({
  tariff: Tariff,
  /** Local dates [from, to] (to null: up to today) recomputed by a retroactive write; null otherwise. */
  recomputed: Type.Union([
    Type.Object({ from: LocalDate, to: Type.Union([LocalDate, Type.Null()]) }),
    Type.Null(),
  ]),
});
export type TariffWriteResult = Static<typeof TariffWriteResult>;

export const TariffVersionParams = Type.Object({ id: RowId, versionId: RowId });

// ---- cost by band: POST /api/statistics/range/TPFC ---------------------------------------------

/** Energy or cost of each band (0 for bands not used). */
export const BandAmounts = Type.Object({
  tip: Type.Number(),
  peak: Type.Number(),
  flat: Type.Number(),
  valley: Type.Number(),
  deepValley: Type.Number(),
});
export type BandAmounts = Static<typeof BandAmounts>;

export const TpfcTarget = Type.Object({ resourceType: ResourceTypeSchema, resourceId: RowId });

export const TpfcQuery = Type.Object({
  tariffId: RowId,
  targets: Type.Array(TpfcTarget, { minItems: 1, maxItems: 500 }),
  /** A region's meters one row each instead of the region's sum. */
  byThing: Type.Optional(Type.Boolean()),
  /** The energy counter (a cumulative ability, kWh); default EP. */
  metricIdentifier: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  /** The local day (by hours), month (by days) or year (by months) around `startTime` (or now). */
  period: Type.Enum(PERIODS),
  startTime: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_EPOCH_MS })),
});
export type TpfcQuery = Static<typeof TpfcQuery>;

export const TpfcAmounts = Type.Object({
  energy: BandAmounts,
  cost: BandAmounts,
  totalEnergy: Type.Number(),
  totalCost: Type.Number(),
  /** Energy on days before the tariff's first version (not priced). */
  unpricedEnergy: Type.Number(),
});
export type TpfcAmounts = Static<typeof TpfcAmounts>;

export const TpfcBucket = Type.Intersect([
  TpfcAmounts,
  Type.Object({
    key: Type.Number(),
    /** YYYY-MM, MM-DD or HH:00 (spec §9). */
    label: Type.String(),
  }),
]);
export type TpfcBucket = Static<typeof TpfcBucket>;

export const TpfcRow = Type.Object({
  resourceType: ResourceTypeSchema,
  resourceId: Type.Integer(),
  name: Type.String(),
  buckets: Type.Array(TpfcBucket),
  total: TpfcAmounts,
});
export type TpfcRow = Static<typeof TpfcRow>;

export const VersionRef = Type.Object({ id: Type.Integer(), validFrom: LocalDate });

export const TpfcResult = Type.Object({
  tariffId: Type.Integer(),
  period: Type.Enum(PERIODS),
  start: Type.Number(),
  end: Type.Number(),
  timeZone: Type.String(),
  unit: Type.String(),
  /** The versions that priced some of the range, oldest first. */
  versions: Type.Array(VersionRef),
  rows: Type.Array(TpfcRow),
});
export type TpfcResult = Static<typeof TpfcResult>;

// ---- the monthly bill: POST /api/tariffs/bill ---------------------------------------------------

export const BillQuery = Type.Object({
  /** Left out: the target's own tariff (a region's, else its nearest ancestor's, else the plant's). */
  tariffId: Type.Optional(RowId),
  resourceType: ResourceTypeSchema,
  resourceId: RowId,
  /** The local month `YYYY-MM`. */
  month: Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$' }),
  /** Active energy counter (kWh); default EP. */
  energyMetric: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  /** Reactive energy counter (kvarh); default EQ. Without it there is no power-factor line. */
  reactiveMetric: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});
export type BillQuery = Static<typeof BillQuery>;

export const BillEnergyLine = Type.Object({
  band: Type.Enum(BAND_KINDS),
  energy: Type.Number(),
  /** Cost ÷ energy (one price unless a version changed inside the month). */
  price: Type.Number(),
  cost: Type.Number(),
});

export const BillDemand = Type.Object({
  kind: Type.Union([Type.Literal('none'), Type.Literal('demand'), Type.Literal('capacity')]),
  /** kW (the month's highest 15-minute average) or kVA (contracted). */
  quantity: Type.Number(),
  /** How the maximum was windowed (demand only). */
  window: Type.Union([DemandWindowModeSchema, Type.Null()]),
  /** The maximum's window [at, end), ms (demand only). */
  at: Type.Union([Type.Number(), Type.Null()]),
  end: Type.Union([Type.Number(), Type.Null()]),
  /** Per kW or kVA for the month (day-weighted when a version changed inside it). */
  price: Type.Number(),
  cost: Type.Number(),
});

export const BillPowerFactor = Type.Object({
  target: Type.Union([Type.Number(), Type.Null()]),
  activeKwh: Type.Number(),
  reactiveKvarh: Type.Union([Type.Number(), Type.Null()]),
  /** kWh / √(kWh² + kvarh²), to 2 decimals as the 1983 rules read it. */
  cosPhi: Type.Union([Type.Number(), Type.Null()]),
  /** % of the base: positive adds, negative reduces. */
  percent: Type.Number(),
  /** Demand (or capacity) charge plus energy charge. */
  base: Type.Number(),
  cost: Type.Number(),
  /** Why there is no adjustment: no target in the tariff, or no reactive counter. */
  note: Type.Union([Type.Literal('noTarget'), Type.Literal('noReactive'), Type.Null()]),
});

/**
 * Why a tariff priced a target: it was asked for, a region has it (the target itself or its nearest
 * ancestor; a meter's regions), or it is the plant's.
 */
export const TariffSource = Type.Object({
  kind: Type.Union([Type.Literal('asked'), Type.Literal('region'), Type.Literal('plant')]),
  /** The region whose tariff it is (kind `region`). */
  region: Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()]),
});
export type TariffSource = Static<typeof TariffSource>;

/**
 * How much of the bill's month has readings: the first and last reading of its meters (ms, to the
 * minute; null without any), the share of the month's hours up to now (or its end) with a reading
 * of some meter, and the days without any reading (local day starts), which are "no data", not 0.
 */
export const BillCoverage = Type.Object({
  first: Type.Union([Type.Number(), Type.Null()]),
  last: Type.Union([Type.Number(), Type.Null()]),
  percent: Type.Number(),
  emptyDays: Type.Array(Type.Number()),
});
export type BillCoverage = Static<typeof BillCoverage>;

export const Bill = Type.Object({
  tariffId: Type.Integer(),
  tariffName: Type.String(),
  tariffSource: TariffSource,
  coverage: BillCoverage,
  resourceType: ResourceTypeSchema,
  resourceId: Type.Integer(),
  name: Type.String(),
  month: Type.String(),
  start: Type.Number(),
  end: Type.Number(),
  timeZone: Type.String(),
  versions: Type.Array(VersionRef),
  energy: Type.Array(BillEnergyLine),
  energyKwh: Type.Number(),
  energyCost: Type.Number(),
  /** Energy on days before the tariff's first version (not priced). */
  unpricedEnergy: Type.Number(),
  demand: BillDemand,
  powerFactor: BillPowerFactor,
  total: Type.Number(),
});
export type Bill = Static<typeof Bill>;

// ---- endpoints -----------------------------------------------------------------------------------

export const tariffList = endpoint({
  method: 'GET',
  path: '/api/tariffs',
  response: Type.Array(Tariff),
  tags: ['tariffs'],
  summary: 'Tariffs with their versions',
});

export const tariffGet = endpoint({
  method: 'GET',
  path: '/api/tariffs/:id',
  params: IdParams,
  response: Tariff,
  tags: ['tariffs'],
  summary: 'One tariff with its versions',
});

export const tariffCreate = endpoint({
  method: 'POST',
  path: '/api/tariffs',
  body: TariffCreate,
  response: TariffWriteResult,
  tags: ['tariffs'],
  summary: 'Create a tariff with its first version',
  description:
    '422 bands that leave a gap or overlap, seasons that do not cover the year, a used band without a price.',
});

export const tariffUpdate = endpoint({
  method: 'PUT',
  path: '/api/tariffs/:id',
  params: IdParams,
  body: TariffUpdate,
  response: TariffWriteResult,
  tags: ['tariffs'],
  summary: "Change a tariff's name, holidays, make-up working days and weekend",
  description: "422 a change of a past day's type without `retroactive: true`.",
});

export const tariffDelete = endpoint({
  method: 'DELETE',
  path: '/api/tariffs/:id',
  params: IdParams,
  response: Ok,
  tags: ['tariffs'],
  summary: 'Delete a tariff and its versions',
});

/** The tariff the plant is priced with (the overview's cost, the ERP export's); null when none. */
export const PlantTariff = Type.Object({ tariffId: Type.Union([RowId, Type.Null()]) });
export type PlantTariff = Static<typeof PlantTariff>;

export const tariffPlantGet = endpoint({
  method: 'GET',
  path: '/api/tariffs/plant',
  response: PlantTariff,
  tags: ['tariffs'],
  summary: "The plant's tariff (erpConfig's tariffId), null when none is chosen",
});

export const tariffPlantSet = endpoint({
  method: 'PUT',
  path: '/api/tariffs/plant',
  body: PlantTariff,
  response: PlantTariff,
  tags: ['tariffs'],
  summary: "Make a tariff the plant's (null: none); kept in erpConfig's tariffId",
  description: 'Needs a grant of /analysis/tariff. 404 unknown tariff.',
});

/** A region priced with its own tariff (its sub-regions too, unless they name one). */
export const RegionTariff = Type.Object({ regionId: RowId, tariffId: RowId });
export type RegionTariff = Static<typeof RegionTariff>;

export const tariffRegionList = endpoint({
  method: 'GET',
  path: '/api/tariffs/regions',
  response: Type.Array(RegionTariff),
  tags: ['tariffs'],
  summary: 'The regions that have a tariff of their own',
});

export const tariffRegionsSet = endpoint({
  method: 'PUT',
  path: '/api/tariffs/:id/regions',
  params: IdParams,
  body: Type.Object({ regionIds: Type.Array(RowId, { maxItems: 1000 }) }),
  response: Type.Array(RegionTariff),
  tags: ['tariffs'],
  summary: "Make a tariff the listed regions' own (a region listed here leaves its former tariff)",
  description:
    "Regions of this tariff not listed go back to their ancestors' or the plant's. Needs a grant of /analysis/tariff. 404 unknown tariff or region.",
});

export const tariffVersionCreate = endpoint({
  method: 'POST',
  path: '/api/tariffs/:id/versions',
  params: IdParams,
  body: TariffVersionInput,
  response: TariffWriteResult,
  tags: ['tariffs'],
  summary: 'New prices or bands from a date on',
  description:
    '409 a version already valid from that date; 422 invalid bands or a start today or earlier without `retroactive: true`.',
});

export const tariffVersionUpdate = endpoint({
  method: 'PUT',
  path: '/api/tariffs/:id/versions/:versionId',
  params: TariffVersionParams,
  body: TariffVersionInput,
  response: TariffWriteResult,
  tags: ['tariffs'],
  summary: 'Change a version (one that has started needs `retroactive: true`)',
});

export const tariffVersionDelete = endpoint({
  method: 'DELETE',
  path: '/api/tariffs/:id/versions/:versionId',
  params: TariffVersionParams,
  querystring: Type.Object({ retroactive: Type.Optional(Type.Boolean()) }),
  response: TariffWriteResult,
  tags: ['tariffs'],
  summary: 'Delete a version (one that has started needs `retroactive=true`; the last one stays)',
});

export const statisticsRangeTpfc = endpoint({
  method: 'POST',
  path: '/api/statistics/range/TPFC',
  body: TpfcQuery,
  response: TpfcResult,
  tags: ['statistics'],
  summary: 'Energy and cost per tariff band (尖峰平谷) of things or regions over a day, month or year',
  description:
    "From the energy counter's consumption in 15-minute (or finer) buckets, each priced by the tariff version, season, day type and band of its start in the plant's zone. 404 unknown tariff or resource; 422 a metric that is not a counter of the resource.",
});

export const tariffBill = endpoint({
  method: 'POST',
  path: '/api/tariffs/bill',
  body: BillQuery,
  response: Bill,
  tags: ['tariffs'],
  summary: 'The monthly electricity bill of a meter or region: energy by band, demand, power factor',
});
