import { type Static, Type } from 'typebox';
import { EpochMs, tags } from './alarm-fields.ts';
import { IdParams, Ok, Page, PageQuery, RowId } from './common.ts';
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
