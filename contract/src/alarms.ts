import { type Static, Type } from 'typebox';

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
