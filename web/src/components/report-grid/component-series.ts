import type { ChartType, ComponentMetric, QueryResult } from '@kilowatch/contract';
import { buildSeries, type ChartSeries, isAdditive } from '../charts/series.ts';
import { paletteColor } from '../charts/theme.ts';

/** One metric of a component with the telemetry query's answer (undefined while loading). */
export interface MetricAnswer {
  metric: ComponentMetric;
  answer: QueryResult | undefined;
}

export interface SeriesLabels {
  /** Legend name of a total line (合计). */
  total: string;
  /** The comparison's name, e.g. 昨日; added to the metric's name in the legend. */
  compare: string;
}

const nameOf = (m: ComponentMetric) => m.name || m.identifier;

/**
 * The chart series of a line, bar or bar-accumulation component: each metric's series as the
 * server answered it, then its comparison (already keyed on the reporting period's buckets by
 * the server, so it shares the axis). Accumulated bars stack the metrics, and their comparisons
 * in a second stack beside them.
 */
export function componentSeries(
  chartType: ChartType,
  answers: readonly MetricAnswer[],
  labels: SeriesLabels,
): ChartSeries[] {
  const kind: 'line' | 'bar' = chartType === 'line' ? 'line' : 'bar';
  const stacked = chartType === 'bar-accumulation';
  return answers.flatMap(({ metric, answer }, index) => {
    if (!answer) return [];
    const options = {
      name: nameOf(metric),
      aggregator: metric.statistics,
      color: paletteColor(index),
      unit: metric.unit || answer.unit,
      totalName: labels.total,
    };
    const main = buildSeries(answer.result, options).map((s) => ({
      ...s,
      kind,
      ...(stacked ? { stack: 'report' } : {}),
    }));
    if (!answer.compare) return main;
    const moved = buildSeries(answer.compare.result, {
      ...options,
      name: `${options.name} (${labels.compare})`,
      color: paletteColor(index + 4),
    }).map((s) => ({ ...s, kind, compare: true, ...(stacked ? { stack: 'compare' } : {}) }));
    return [...main, ...moved];
  });
}

export interface MetricTotal {
  name: string;
  unit: string;
  value: number | null;
  /** The comparison's figure, when the component has one. */
  compare: number | null;
  /** (value − compare) / |compare| in %, when both exist and compare ≠ 0. */
  change: number | null;
}

/** Adds the buckets of an additive metric (sum, delta, count), averages any other. */
function fold(values: readonly (number | null)[], additive: boolean): number | null {
  const present = values.filter((v): v is number => v !== null);
  if (present.length === 0) return null;
  const sum = present.reduce((a, b) => a + b, 0);
  return additive ? sum : sum / present.length;
}

/** Each metric over the whole period (pie slices, operation figures) with its comparison. */
export function metricTotals(answers: readonly MetricAnswer[]): MetricTotal[] {
  return answers.map(({ metric, answer }) => {
    const additive = isAdditive(metric.statistics) || metric.statistics === 'count';
    const value = fold(answer?.result.map((p) => p.value) ?? [], additive);
    const compare = answer?.compare
      ? fold(
          answer.compare.result.map((p) => p.value),
          additive,
        )
      : null;
    return {
      name: nameOf(metric),
      unit: metric.unit || answer?.unit || '',
      value,
      compare,
      change:
        value !== null && compare !== null && compare !== 0
          ? ((value - compare) / Math.abs(compare)) * 100
          : null,
    };
  });
}
