import type { EffectiveAbility, ExploreSeries, MetricQuery } from '@kilowatch/contract';

/** Points a series asks for at most: a panel is about as wide as a screen. */
export const EXPLORE_MAX_POINTS = 1500;
/** Up to this span a series is read as raw points (downsampled by the server); beyond, as buckets. */
export const RAW_SPAN_MS = 6 * 3600_000;

/** Counters (energy, pieces) are drawn as what they counted per bucket, never as the register. */
export const isCounterAbility = (ability: Pick<EffectiveAbility, 'cumulative' | 'aggregator'> | undefined) =>
  ability?.cumulative === true || ability?.aggregator === 'count';

/**
 * The body of one series over [start, end): raw points downsampled up to 6 h, automatic buckets
 * beyond, and a counter per bucket at every span (the server picks the width and names it in its
 * answer's `bucket`). No aggregator is sent: the server takes the ability's own (delta for a
 * counter). A region's things are combined by the metric's nature (contract defaultCombine).
 */
export function seriesQuery(
  s: ExploreSeries,
  ability: EffectiveAbility | undefined,
  range: { start: number; end: number },
): MetricQuery {
  const bucketed = isCounterAbility(ability) || range.end - range.start > RAW_SPAN_MS;
  return {
    resourceType: s.resourceType,
    resourceId: s.resourceId,
    metricIdentifier: s.metric,
    metricName: ability?.name ?? s.metric,
    startTime: range.start,
    endTime: range.end,
    maxPoints: EXPLORE_MAX_POINTS,
    ...(ability?.unit ? { unit: ability.unit } : {}),
    ...(bucketed ? { groupByTime: 'auto' as const } : {}),
    ...(s.resourceType === 'region' ? { successor: true } : {}),
  };
}
