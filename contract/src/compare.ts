import { type Static, Type } from 'typebox';
import { MAX_EPOCH_MS } from './common.ts';

/**
 * Comparisons of a telemetry query (spec §9 year-on-year options; issue 12's KPI reports): the
 * same metric over a second range, read on the same buckets and computed by the server on the
 * plant calendar, so a chart, a report component and an xlsx export compare the same way.
 */

/** Units a comparison moves by; `week` is 7 local days, `year` 12 months. */
export const COMPARE_UNITS = ['hour', 'day', 'week', 'month', 'year'] as const;
export type CompareUnit = (typeof COMPARE_UNITS)[number];

/**
 * `compare` of a MetricQuery: exactly one of `shift` or `startTime`.
 * - yesterday `{ shift: { amount: -24, unit: 'hour' } }`, last week `{ amount: -168, unit: 'hour' }`,
 *   month on month `{ amount: -1, unit: 'month' }`, year on year `{ amount: -1, unit: 'year' }`;
 * - a chosen date, or a base period against the query's reporting period: `{ startTime }`, the
 *   base period's start. With the query's `period` it names the day, month or year that holds
 *   it; otherwise the query's range moves to start there, by whole months for month and year
 *   buckets, whole local days for day buckets, exactly otherwise.
 */
export const QueryComparison = Type.Object({
  shift: Type.Optional(
    Type.Object({
      /** Negative looks back. */
      amount: Type.Integer({ minimum: -100_000, maximum: 100_000 }),
      unit: Type.Enum(COMPARE_UNITS),
    }),
  ),
  startTime: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_EPOCH_MS })),
  /**
   * `weekday`: a comparison moved by months or years starts on the same weekday as the query's
   * range (the nearest, at most 3 days off), so a Monday is held against a Monday.
   */
  align: Type.Optional(Type.Literal('weekday')),
});
export type QueryComparison = Static<typeof QueryComparison>;

/** One point of a comparison: `key` is the query's bucket it lines up with, `at` its own start. */
export const ComparePoint = Type.Object({
  key: Type.Number(),
  at: Type.Number(),
  value: Type.Union([Type.Number(), Type.Null()]),
  group: Type.String(),
  complete: Type.Boolean(),
  missing: Type.Optional(Type.Array(Type.String(), { maxItems: 20 })),
  missingCount: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type ComparePoint = Static<typeof ComparePoint>;

/** The comparison part of a QueryResult. */
export const CompareResult = Type.Object({
  /** The range read for the comparison, [startTime, endTime). */
  startTime: Type.Number(),
  endTime: Type.Number(),
  /** How far it lies from the query's range, on the plant calendar (`ms`, local days or months). */
  shift: Type.Object({
    amount: Type.Number(),
    unit: Type.Union([Type.Literal('ms'), Type.Literal('day'), Type.Literal('month')]),
  }),
  /** Local days added so weekdays line up (`align: 'weekday'`), −3…3; absent when none. */
  alignDays: Type.Optional(Type.Integer({ minimum: -3, maximum: 3 })),
  /** Points on the query's axis; comparison buckets with no counterpart (Jan 31 vs February) are left out. */
  result: Type.Array(ComparePoint),
});
export type CompareResult = Static<typeof CompareResult>;
