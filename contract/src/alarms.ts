import { type Static, Type } from 'typebox';
import { EpochMs, tags } from './alarm-fields.ts';
import { AlarmCondition, MONITOR_TARGETS, SEVERITIES } from './alarm-rules.ts';
import { IdParams, PageQuery, RowId } from './common.ts';
import { endpoint } from './endpoint.ts';

// Alarm history: the alarms raised, their state and operators' actions, spans and a thing's events.

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

// ---- endpoints ----------------------------------------------------------------------------------

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
