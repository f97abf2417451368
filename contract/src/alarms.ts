import { type Static, Type } from 'typebox';
import { IdParams, MAX_EPOCH_MS, Ok, Page, PageQuery, RowId } from './common.ts';
import { endpoint } from './endpoint.ts';

/**
 * Alarm rules (spec §7 Alarms; issue 11). A rule watches one ability of a thing with a condition,
 * holds it for an on-delay before raising and for an off-delay before returning, and returns through
 * a deadband so a value hovering at the limit does not chatter. The engine that evaluates them is pure
 * (server/src/modules/alarms/engine): these shapes are its input as well as the API's.
 */

export const SEVERITIES = ['critical', 'major', 'minor', 'warning'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const COMPARISONS = ['>', '>=', '<', '<=', '=', '!='] as const;
export type Comparison = (typeof COMPARISONS)[number];

/** Limits are plain finite numbers of the ability's unit. */
const Limit = Type.Number({ minimum: -1e15, maximum: 1e15 });
/** Durations in seconds: up to a week. */
const Seconds = (minimum: number) => Type.Integer({ minimum, maximum: 604_800 });

export const ThresholdCondition = Type.Object({
  kind: Type.Literal('threshold'),
  op: Type.Enum(COMPARISONS),
  value: Limit,
});

/** In alarm while the value is inside [low, high] (`inside: true`) or outside it. */
export const RangeCondition = Type.Object({
  kind: Type.Literal('range'),
  inside: Type.Boolean(),
  low: Limit,
  high: Limit,
});

/**
 * In alarm while the change over the last `seconds` (value now minus the value `seconds` ago, per
 * `seconds`) compares with `value`: a rise faster than 5 °C per minute is
 * `{ op: '>', value: 5, seconds: 60 }`; a fall, `{ op: '<', value: -5, … }`.
 */
export const RateCondition = Type.Object({
  kind: Type.Literal('rate'),
  op: Type.Enum(COMPARISONS),
  value: Limit,
  seconds: Seconds(1),
});

/** In alarm when no point has come for `seconds` (the device is offline or its sensor stuck). */
export const NoDataCondition = Type.Object({
  kind: Type.Literal('noData'),
  seconds: Seconds(1),
});

/** In alarm while the value is one of `values` (运转状态 = 故障, a fire sensor's 报警). */
export const StateCondition = Type.Object({
  kind: Type.Literal('state'),
  values: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 32 }),
});

export const AlarmCondition = Type.Union([
  ThresholdCondition,
  RangeCondition,
  RateCondition,
  NoDataCondition,
  StateCondition,
]);
export type AlarmCondition = Static<typeof AlarmCondition>;

/** What the engine needs of a rule: the condition and its timing. */
export const AlarmTiming = Type.Object({
  /** The condition must hold this long before the alarm raises. */
  onDelay: Seconds(0),
  /** The condition must be clear this long before the alarm returns to normal. */
  offDelay: Seconds(0),
  /** How far past the limit, back towards normal, the value must go to clear (threshold, range, rate). */
  deadband: Type.Number({ minimum: 0, maximum: 1e15 }),
});
export type AlarmTiming = Static<typeof AlarmTiming>;

/** Chattering: more than `count` raises within `minutes` flag the alarm and stop new rings. */
export const CHATTER_COUNT = 5;
export const CHATTER_MINUTES = 10;

// ---- rules, templates, monitors ------------------------------------------------------------------

const Name = Type.String({ minLength: 1, maxLength: 64 });
const Identifier = Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_.:-]{0,63}$', maxLength: 64 });

const RuleFields = {
  name: Name,
  /** The ability (metric identifier) watched. */
  ability: Identifier,
  /** The category whose ability it is; null for a rule meant for any thing that has the ability. */
  categoryId: Type.Union([RowId, Type.Null()]),
  condition: AlarmCondition,
  ...AlarmTiming.properties,
  severity: Type.Enum(SEVERITIES),
  /** Shown with the alarm; `{value}`, `{unit}`, `{thing}`, `{region}`, `{rule}` are filled in. */
  message: Type.String({ maxLength: 200 }),
};

export const AlarmRuleInput = Type.Object({
  ...RuleFields,
  templateId: Type.Optional(Type.Union([RowId, Type.Null()])),
});
export type AlarmRuleInput = Static<typeof AlarmRuleInput>;

export const AlarmRule = Type.Object({
  id: Type.Integer(),
  ...RuleFields,
  templateId: Type.Union([Type.Integer(), Type.Null()]),
  templateName: Type.String(),
  enabled: Type.Boolean(),
  /** How many things its monitors cover now. */
  things: Type.Integer(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type AlarmRule = Static<typeof AlarmRule>;

export const RULE_STATE_ACTIONS = ['enable', 'disable'] as const;
export const RuleStateBody = Type.Object({ action: Type.Enum(RULE_STATE_ACTIONS) });

export const AlarmRuleQuery = Type.Object({
  ...PageQuery.properties,
  name: Type.Optional(Type.String({ maxLength: 64 })),
  templateId: Type.Optional(RowId),
});
export type AlarmRuleQuery = Static<typeof AlarmRuleQuery>;

export const AlarmTemplateInput = Type.Object({
  name: Name,
  categoryId: RowId,
  description: Type.String({ maxLength: 500 }),
});
export type AlarmTemplateInput = Static<typeof AlarmTemplateInput>;

export const AlarmTemplate = Type.Object({
  id: Type.Integer(),
  ...AlarmTemplateInput.properties,
  categoryName: Type.String(),
  rules: Type.Integer(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type AlarmTemplate = Static<typeof AlarmTemplate>;

export const AlarmTemplateQuery = Type.Object({
  ...PageQuery.properties,
  name: Type.Optional(Type.String({ maxLength: 64 })),
});
export type AlarmTemplateQuery = Static<typeof AlarmTemplateQuery>;

export const MONITOR_APPLIED = ['rule', 'template'] as const;
export const MONITOR_TARGETS = ['thing', 'region'] as const;

/** POST /api/alarm/monitors/batch: apply one rule or template to many things and regions at once. */
export const MonitorBatch = Type.Object({
  appliedType: Type.Enum(MONITOR_APPLIED),
  appliedId: RowId,
  targets: Type.Array(Type.Object({ type: Type.Enum(MONITOR_TARGETS), id: RowId }), {
    minItems: 1,
    maxItems: 1000,
  }),
});
export type MonitorBatch = Static<typeof MonitorBatch>;

export const AlarmMonitor = Type.Object({
  id: Type.Integer(),
  appliedType: Type.Enum(MONITOR_APPLIED),
  appliedId: Type.Integer(),
  appliedName: Type.String(),
  targetType: Type.Enum(MONITOR_TARGETS),
  targetId: Type.Integer(),
  targetName: Type.String(),
  createdAt: Type.String(),
});
export type AlarmMonitor = Static<typeof AlarmMonitor>;

export const AlarmMonitorQuery = Type.Object({
  ...PageQuery.properties,
  appliedType: Type.Optional(Type.Enum(MONITOR_APPLIED)),
  appliedId: Type.Optional(RowId),
});
export type AlarmMonitorQuery = Static<typeof AlarmMonitorQuery>;

// ---- history and actions ---------------------------------------------------------------------------

/**
 * An alarm's state as the list and the bell filter it (docs/alarms.md): 1 is what the bell rings for,
 * active and unacknowledged (not shelved, not suppressed).
 */
export const ALARM_STATE = {
  unacknowledged: 1,
  acknowledged: 2,
  returnedUnacknowledged: 3,
  normal: 4,
  shelved: 5,
  suppressed: 6,
} as const;
export type AlarmStateCode = (typeof ALARM_STATE)[keyof typeof ALARM_STATE];
const StateCode = Type.Integer({ minimum: 1, maximum: 6 });
/** ms since the epoch: a number, since it outgrows the 32-bit integers ids use. */
const EpochMs = Type.Number({ minimum: 0, maximum: MAX_EPOCH_MS });

export const AlarmHistoryQuery = Type.Object({
  ...PageQuery.properties,
  /** A substring of the resource's, the thing's or the rule's name. */
  name: Type.Optional(Type.String({ maxLength: 64 })),
  templateName: Type.Optional(Type.String({ maxLength: 64 })),
  id: Type.Optional(RowId),
  ruleId: Type.Optional(RowId),
  state: Type.Optional(StateCode),
  severity: Type.Optional(Type.Enum(SEVERITIES)),
  /** Raised at or after / before, ms since the epoch. */
  start: Type.Optional(EpochMs),
  end: Type.Optional(EpochMs),
  /** Alarms of one thing (the health page's bad actors link here with `ruleId`). */
  thingId: Type.Optional(RowId),
});
export type AlarmHistoryQuery = Static<typeof AlarmHistoryQuery>;

export const AlarmHistoryItem = Type.Object({
  id: Type.Integer(),
  ruleId: Type.Integer(),
  ruleName: Type.String(),
  templateName: Type.String(),
  /** What the monitor was applied to: the spec's 区域 (region) or 设备 (thing). */
  resourceType: Type.Enum(MONITOR_TARGETS),
  resourceId: Type.Integer(),
  resourceName: Type.String(),
  thingId: Type.Integer(),
  thingName: Type.String(),
  ability: Type.String(),
  /** The ability's name in the thing's category (有功功率); absent when the category has none by that identifier. */
  abilityName: Type.Optional(Type.String()),
  /** The ability's unit (kW, ℃); absent as above. */
  unit: Type.Optional(Type.String()),
  /** For an enum ability, the name of the state the value stands for (故障 for "2"). */
  valueName: Type.Optional(Type.String()),
  severity: Type.Enum(SEVERITIES),
  message: Type.String(),
  value: Type.String(),
  alarmAt: Type.String(),
  returnedAt: Type.Union([Type.String(), Type.Null()]),
  state: StateCode,
  shelvedUntil: Type.Union([Type.String(), Type.Null()]),
  chattering: Type.Boolean(),
  occurrences: Type.Integer(),
});
export type AlarmHistoryItem = Static<typeof AlarmHistoryItem>;

/** The spec's list shape: `size` counts every match (the bell's badge), `hasNextPage` for paging. */
export const AlarmHistoryPage = Type.Object({
  list: Type.Array(AlarmHistoryItem),
  hasNextPage: Type.Boolean(),
  size: Type.Integer(),
});

export const ALARM_ACTION_TYPES = ['acknowledge', 'comment', 'shelve', 'unshelve', 'close'] as const;
export type AlarmActionType = (typeof ALARM_ACTION_TYPES)[number];

export const AlarmActionBody = Type.Object({
  action: Type.Enum(ALARM_ACTION_TYPES),
  comment: Type.Optional(Type.String({ maxLength: 500 })),
  /** Shelve until, ms since the epoch. */
  until: Type.Optional(EpochMs),
});
export type AlarmActionBody = Static<typeof AlarmActionBody>;

export const AlarmActionEntry = Type.Object({
  id: Type.Integer(),
  action: Type.Enum(ALARM_ACTION_TYPES),
  username: Type.String(),
  comment: Type.String(),
  until: Type.Union([Type.String(), Type.Null()]),
  at: Type.String(),
});
export type AlarmActionEntry = Static<typeof AlarmActionEntry>;

export const AlarmDetail = Type.Object({
  ...AlarmHistoryItem.properties,
  actions: Type.Array(AlarmActionEntry),
  /** The rule's condition as it is now, for the detail's chart (absent once the rule is deleted). */
  condition: Type.Optional(AlarmCondition),
});
export type AlarmDetail = Static<typeof AlarmDetail>;

// ---- backtest ------------------------------------------------------------------------------------

/** Run a rule (saved or not) over one thing's stored history, before enabling it. */
export const BacktestBody = Type.Object({
  rule: AlarmRuleInput,
  thingId: RowId,
  start: EpochMs,
  end: EpochMs,
});
export type BacktestBody = Static<typeof BacktestBody>;

export const BacktestResult = Type.Object({
  alarms: Type.Array(
    Type.Object({
      raisedAt: Type.Integer(),
      returnedAt: Type.Union([Type.Integer(), Type.Null()]),
      value: Type.Union([Type.Number(), Type.String(), Type.Null()]),
      chattering: Type.Boolean(),
    }),
  ),
  /** The metric's raw points the rule ran over ([ms, value]), for the chart. */
  points: Type.Array(Type.Tuple([Type.Number(), Type.Number()])),
  /** Whether the range held more points than one backtest reads (the last ones were left out). */
  truncated: Type.Boolean(),
});
export type BacktestResult = Static<typeof BacktestResult>;

// ---- endpoints ----------------------------------------------------------------------------------

const tags = ['alarms'];

export const alarmRuleList = endpoint({
  method: 'GET',
  path: '/api/alarm/rules',
  querystring: AlarmRuleQuery,
  response: Page(AlarmRule),
  tags,
  summary: 'Alarm rules, paged; `name` matches a substring, `templateId` narrows to one template',
});

export const alarmRuleCreate = endpoint({
  method: 'POST',
  path: '/api/alarm/rules',
  body: AlarmRuleInput,
  response: AlarmRule,
  tags,
  summary: 'Create a rule (disabled until its state is set to enable)',
});

export const alarmRuleUpdate = endpoint({
  method: 'PUT',
  path: '/api/alarm/rules/:id',
  params: IdParams,
  body: AlarmRuleInput,
  response: AlarmRule,
  tags,
  summary: 'Change a rule; the engine applies it at once',
});

export const alarmRuleDelete = endpoint({
  method: 'DELETE',
  path: '/api/alarm/rules/:id',
  params: IdParams,
  response: Ok,
  tags,
  summary: 'Delete a rule and its monitors; its alarms stay in history',
});

export const alarmRuleState = endpoint({
  method: 'POST',
  path: '/api/alarm/rules/:id/state',
  params: IdParams,
  body: RuleStateBody,
  response: AlarmRule,
  tags,
  summary: 'Enable or disable a rule (`action`: enable | disable)',
});

export const alarmRuleBacktest = endpoint({
  method: 'POST',
  path: '/api/alarm/rules/backtest',
  body: BacktestBody,
  response: BacktestResult,
  tags,
  summary: 'Run a rule over one thing’s stored history: the alarms it would have raised, and the points',
});

export const alarmTemplateList = endpoint({
  method: 'GET',
  path: '/api/alarm/templates',
  querystring: AlarmTemplateQuery,
  response: Page(AlarmTemplate),
  tags,
  summary: 'Alarm templates (rule sets for a device category), paged',
});

export const alarmTemplateCreate = endpoint({
  method: 'POST',
  path: '/api/alarm/templates',
  body: AlarmTemplateInput,
  response: AlarmTemplate,
  tags,
  summary: 'Create a template',
});

export const alarmTemplateUpdate = endpoint({
  method: 'PUT',
  path: '/api/alarm/templates/:id',
  params: IdParams,
  body: AlarmTemplateInput,
  response: AlarmTemplate,
  tags,
  summary: 'Change a template (its category only while it has no rules)',
});

export const alarmTemplateDelete = endpoint({
  method: 'DELETE',
  path: '/api/alarm/templates/:id',
  params: IdParams,
  response: Ok,
  tags,
  summary: 'Delete a template with its rules and monitors',
});

export const alarmMonitorList = endpoint({
  method: 'GET',
  path: '/api/alarm/monitors',
  querystring: AlarmMonitorQuery,
  response: Page(AlarmMonitor),
  tags,
  summary: 'Monitors (a rule or template applied to a thing or region), paged',
});

export const alarmMonitorBatch = endpoint({
  method: 'POST',
  path: '/api/alarm/monitors/batch',
  body: MonitorBatch,
  response: Type.Object({ created: Type.Integer() }),
  tags,
  summary: 'Apply one rule or template to many things and regions (a region covers its descendants)',
});

export const alarmMonitorDelete = endpoint({
  method: 'DELETE',
  path: '/api/alarm/monitors/:id',
  params: IdParams,
  response: Ok,
  tags,
  summary: 'Remove a monitor',
});

export const alarmHistoryList = endpoint({
  method: 'GET',
  path: '/api/alarm/history',
  querystring: AlarmHistoryQuery,
  response: AlarmHistoryPage,
  tags,
  summary:
    'Alarm history, newest first; `state` 1 is what the bell rings for (active, unacknowledged); `size` counts every match',
});

/** Most things one chart asks the alarms of, and most alarms it is answered with. */
export const MAX_SPAN_THINGS = 200;
export const MAX_SPANS = 500;

/** GET /api/alarm/spans?thingIds=1,2&start=…&end=…: the alarms of these things over a time range. */
export const AlarmSpanQuery = Type.Object({
  thingIds: Type.String({ minLength: 1, maxLength: 2200 }),
  start: EpochMs,
  end: EpochMs,
});
export type AlarmSpanQuery = Static<typeof AlarmSpanQuery>;

/** One alarm as a chart draws it: raised at `alarmAt`, over until `returnedAt` (null: not yet). */
export const AlarmSpan = Type.Object({
  id: Type.Integer(),
  thingId: Type.Integer(),
  thingName: Type.String(),
  ruleName: Type.String(),
  /** The identifier of the ability the rule watches ('' for a rule since deleted). */
  ability: Type.String(),
  severity: Type.Enum(SEVERITIES),
  message: Type.String(),
  value: Type.String(),
  /** ms since the epoch. */
  alarmAt: Type.Number(),
  returnedAt: Type.Union([Type.Number(), Type.Null()]),
  /** Still in alarm now; one neither active nor returned was closed by hand and is drawn as a point. */
  active: Type.Boolean(),
});
export type AlarmSpan = Static<typeof AlarmSpan>;

export const AlarmSpanList = Type.Object({
  list: Type.Array(AlarmSpan),
  /** More than MAX_SPANS overlapped the range: the newest were kept. */
  truncated: Type.Boolean(),
});
export type AlarmSpanList = Static<typeof AlarmSpanList>;

export const alarmSpans = endpoint({
  method: 'GET',
  path: '/api/alarm/spans',
  querystring: AlarmSpanQuery,
  response: AlarmSpanList,
  tags,
  summary:
    'The alarms of given things (`thingIds=1,2`, at most 200) that stood at any time in [start, end): raised before the end and not returned before the start; oldest first, at most 500',
  description:
    'What charts draw as marks (docs/alarms.md, "Alarms on charts"). Suppressed alarms (raised in maintenance) are left out, as from the bell.',
});

/** GET /api/alarm/things/{id}/events: one device's event log over [start, end). */
export const ThingEventQuery = Type.Object({ start: EpochMs, end: EpochMs });
export type ThingEventQuery = Static<typeof ThingEventQuery>;

export const THING_EVENT_KINDS = [
  'raised',
  'returned',
  ...ALARM_ACTION_TYPES,
  'maintenanceStart',
  'maintenanceEnd',
] as const;
export type ThingEventKind = (typeof THING_EVENT_KINDS)[number];

/** Most events one answer holds: the newest are kept. */
export const MAX_THING_EVENTS = 500;

export const ThingEvent = Type.Object({
  /** ms since the epoch. */
  at: Type.Number(),
  kind: Type.Enum(THING_EVENT_KINDS),
  /** The alarm the event is of; null for a maintenance window. */
  alarmId: Type.Union([Type.Integer(), Type.Null()]),
  /** The rule's name for an alarm's events, the window's reason for maintenance. */
  title: Type.String(),
  severity: Type.Union([Type.Enum(SEVERITIES), Type.Null()]),
  /** Who acted ('' for what the engine or the plan did), and the comment they wrote. */
  username: Type.String(),
  comment: Type.String(),
});
export type ThingEvent = Static<typeof ThingEvent>;

export const ThingEventList = Type.Object({
  list: Type.Array(ThingEvent),
  truncated: Type.Boolean(),
});
export type ThingEventList = Static<typeof ThingEventList>;

export const alarmThingEvents = endpoint({
  method: 'GET',
  path: '/api/alarm/things/:id/events',
  params: IdParams,
  querystring: ThingEventQuery,
  response: ThingEventList,
  tags,
  summary:
    "One device's event log over [start, end), newest first: its alarms raised and returned, every acknowledgement, comment, shelve, unshelve and close of them, and its maintenance windows starting and ending",
});

export const alarmHistoryGet = endpoint({
  method: 'GET',
  path: '/api/alarm/history/:id',
  params: IdParams,
  response: AlarmDetail,
  tags,
  summary: 'One alarm with its action trail',
});

export const alarmHistoryAction = endpoint({
  method: 'POST',
  path: '/api/alarm/history/:id/actions',
  params: IdParams,
  body: AlarmActionBody,
  response: AlarmDetail,
  tags,
  summary: 'Acknowledge, comment, shelve (with `until`), unshelve or close an alarm',
});

// ---- maintenance windows -------------------------------------------------------------------------

/** Alarms raised on the target (a thing, or any thing through a region monitor) inside it are suppressed. */
export const MaintenanceInput = Type.Object({
  targetType: Type.Enum(MONITOR_TARGETS),
  targetId: RowId,
  start: EpochMs,
  end: EpochMs,
  reason: Type.String({ maxLength: 200 }),
});
export type MaintenanceInput = Static<typeof MaintenanceInput>;

export const MaintenanceWindow = Type.Object({
  id: Type.Integer(),
  targetType: Type.Enum(MONITOR_TARGETS),
  targetId: Type.Integer(),
  targetName: Type.String(),
  start: Type.String(),
  end: Type.String(),
  reason: Type.String(),
  createdAt: Type.String(),
  /** The username of who planned it ('' for a window planned before this was recorded). */
  createdBy: Type.String(),
});
export type MaintenanceWindow = Static<typeof MaintenanceWindow>;

export const MaintenanceQuery = Type.Object({
  ...PageQuery.properties,
  /** Only windows not yet over at this time (ms); all when absent. */
  openAt: Type.Optional(EpochMs),
});
export type MaintenanceQuery = Static<typeof MaintenanceQuery>;

export const alarmMaintenanceList = endpoint({
  method: 'GET',
  path: '/api/alarm/maintenance',
  querystring: MaintenanceQuery,
  response: Page(MaintenanceWindow),
  tags,
  summary: 'Maintenance windows, latest start first; `openAt` keeps those not over by then',
});

export const alarmMaintenanceCreate = endpoint({
  method: 'POST',
  path: '/api/alarm/maintenance',
  body: MaintenanceInput,
  response: MaintenanceWindow,
  tags,
  summary: 'Plan a maintenance window on a thing or region: alarms raised in it are kept, suppressed',
});

export const alarmMaintenanceDelete = endpoint({
  method: 'DELETE',
  path: '/api/alarm/maintenance/:id',
  params: IdParams,
  response: Ok,
  tags,
  summary: 'Remove a maintenance window',
});

// ---- alarm system health (EEMUA 191) -------------------------------------------------------------

/** EEMUA 191 counts alarms per operator per 10 minutes. */
export const HEALTH_PERIOD_MS = 600_000;
/** More than this many alarms within 10 minutes is a flood. */
export const FLOOD_ALARMS = 10;
/** An alarm active longer than this is standing. */
export const STANDING_MS = 86_400_000;
/** The bad actors listed. */
export const BAD_ACTORS_TOP = 10;
/** The longest range one health report covers (4,464 ten-minute periods). */
export const HEALTH_MAX_RANGE_MS = 31 * 86_400_000;
/** Standing and chattering alarms listed (the counts say how many there are in all). */
export const HEALTH_LIST_MAX = 100;

/**
 * EEMUA 191's judgement of the average alarm rate per 10 minutes: up to 1 very likely acceptable,
 * up to 2 manageable, up to 5 likely over-demanding, above that very likely unacceptable.
 */
export const ALARM_RATE_BANDS = ['acceptable', 'manageable', 'overDemanding', 'unacceptable'] as const;
export type AlarmRateBand = (typeof ALARM_RATE_BANDS)[number];
/** The highest average of each band but the last. */
export const ALARM_RATE_LIMITS = [1, 2, 5] as const;

export function rateBand(average: number): AlarmRateBand {
  const i = ALARM_RATE_LIMITS.findIndex((limit) => average <= limit);
  return ALARM_RATE_BANDS[i === -1 ? ALARM_RATE_BANDS.length - 1 : i]!;
}

export const AlarmHealthQuery = Type.Object({
  /** The range [startTime, endTime), ms since the epoch; at most 31 days. */
  startTime: EpochMs,
  endTime: EpochMs,
});
export type AlarmHealthQuery = Static<typeof AlarmHealthQuery>;

const HealthAlarm = Type.Object({
  id: Type.Integer(),
  ruleId: Type.Integer(),
  ruleName: Type.String(),
  thingId: Type.Integer(),
  thingName: Type.String(),
  severity: Type.Enum(SEVERITIES),
  alarmAt: Type.String(),
  occurrences: Type.Integer(),
});

/** A chattering alarm and how often it annunciated in the range. */
const ChatteringAlarm = Type.Intersect([HealthAlarm, Type.Object({ annunciations: Type.Integer() })]);

/**
 * The health of the alarm system over a range. Per ISA-18.2 / EEMUA 191 every annunciation counts
 * (an alarm becoming active and unacknowledged: its raise and each re-raise grouped into it), so a
 * chattering alarm weighs in the rate, the peak, the floods and the bad actors as often as the
 * operator was shown it; `alarms` counts the distinct alarms beside it.
 */
export const AlarmHealth = Type.Object({
  startTime: Type.Number(),
  endTime: Type.Number(),
  /** Annunciations in the range (suppressed ones are counted apart: nobody was shown them). */
  total: Type.Integer(),
  /** Distinct alarms those annunciations belong to. */
  alarms: Type.Integer(),
  suppressed: Type.Integer(),
  /** Annunciations in each 10-minute period from `startTime` (the last one may be shorter). */
  periods: Type.Array(Type.Integer()),
  /** Per 10 minutes, over the periods already begun (a range reaching into the future is not diluted). */
  average: Type.Number(),
  max: Type.Integer(),
  band: Type.Enum(ALARM_RATE_BANDS),
  /** Percent of the periods begun holding more than FLOOD_ALARMS annunciations. */
  floodPeriodsPercent: Type.Number(),
  /** Runs of more than FLOOD_ALARMS annunciations within any 10 minutes: first and last, how many. */
  floods: Type.Array(Type.Object({ start: Type.String(), end: Type.String(), count: Type.Integer() })),
  /** The time standing alarms are judged at: the range's end, or now if that is earlier. */
  standingAt: Type.String(),
  /** Active for over 24 h at `standingAt`, oldest first. */
  standing: Type.Array(HealthAlarm),
  standingCount: Type.Integer(),
  /** Alarms flagged chattering by the engine that annunciated in the range, most annunciations first. */
  chattering: Type.Array(ChatteringAlarm),
  /** Distinct chattering alarms, and their annunciations in the range. */
  chatteringCount: Type.Integer(),
  chatteringAnnunciations: Type.Integer(),
  /**
   * The rule × thing pairs annunciating most in the range: `count` annunciations, `alarms` distinct
   * alarms; `share` of `total`, 0…1.
   */
  badActors: Type.Array(
    Type.Object({
      ruleId: Type.Integer(),
      ruleName: Type.String(),
      thingId: Type.Integer(),
      thingName: Type.String(),
      count: Type.Integer(),
      alarms: Type.Integer(),
      share: Type.Number(),
    }),
  ),
});
export type AlarmHealth = Static<typeof AlarmHealth>;

export const alarmHealth = endpoint({
  method: 'GET',
  path: '/api/alarm/health',
  querystring: AlarmHealthQuery,
  response: AlarmHealth,
  tags,
  summary:
    'Alarm system health over [startTime, endTime) (ISA-18.2, EEMUA 191): annunciations per 10 minutes, floods, standing and chattering alarms, the top 10 bad actors',
});

// ---- out of service (ISA-18.2) -------------------------------------------------------------------

/**
 * Take alarms out of service: a rule on one thing (`ruleId` and `thingId`), or everything one
 * monitor watches (`monitorId`). The engine stops watching them, so they neither raise nor ring,
 * until they are returned to service; an open alarm among them is closed with the reason.
 */
export const OutOfServiceInput = Type.Object({
  ruleId: Type.Optional(RowId),
  thingId: Type.Optional(RowId),
  monitorId: Type.Optional(RowId),
  reason: Type.String({ minLength: 1, maxLength: 200 }),
});
export type OutOfServiceInput = Static<typeof OutOfServiceInput>;

export const OutOfServiceEntry = Type.Object({
  id: Type.Integer(),
  ruleId: Type.Union([Type.Integer(), Type.Null()]),
  thingId: Type.Union([Type.Integer(), Type.Null()]),
  monitorId: Type.Union([Type.Integer(), Type.Null()]),
  /** "rule · thing", or for a monitor "rule or template → thing or region", as named when taken out. */
  name: Type.String(),
  reason: Type.String(),
  username: Type.String(),
  createdAt: Type.String(),
});
export type OutOfServiceEntry = Static<typeof OutOfServiceEntry>;

export const OutOfServiceQuery = Type.Object({
  ...PageQuery.properties,
  ruleId: Type.Optional(RowId),
  thingId: Type.Optional(RowId),
});
export type OutOfServiceQuery = Static<typeof OutOfServiceQuery>;

export const alarmOutOfServiceList = endpoint({
  method: 'GET',
  path: '/api/alarm/out-of-service',
  querystring: OutOfServiceQuery,
  response: Page(OutOfServiceEntry),
  tags,
  summary: 'Alarms out of service, newest first; `ruleId` and `thingId` narrow to the entries covering them',
});

export const alarmOutOfServiceCreate = endpoint({
  method: 'POST',
  path: '/api/alarm/out-of-service',
  body: OutOfServiceInput,
  response: OutOfServiceEntry,
  tags,
  summary:
    'Take a rule on one thing (`ruleId` + `thingId`) or a monitor (`monitorId`) out of service, with a reason',
});

export const alarmOutOfServiceDelete = endpoint({
  method: 'DELETE',
  path: '/api/alarm/out-of-service/:id',
  params: IdParams,
  response: Ok,
  tags,
  summary: 'Return to service: the engine watches it again from now',
});
