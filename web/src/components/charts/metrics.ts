import {
  type Aggregator,
  type MetricConfig,
  QUERY_AGGREGATORS,
  type QueryAggregator,
} from '@kilowatch/contract';
import { isSpecialMetric } from './series.ts';
import { paletteColor } from './theme.ts';

/**
 * What a chart screen draws: a metric of a resource with its name, unit, aggregator and colour,
 * taken from the resource's metric configs or, without configs, from its abilities.
 */
export interface ChartMetric {
  identifier: string;
  name: string;
  unit: string;
  aggregator: QueryAggregator;
  color: string;
  /** A cumulative counter (energy…): its chart axis never goes below zero. */
  cumulative?: boolean;
}

/** An ability a metric can come from (category, model or thing ability). */
export interface MetricSource {
  identifier: string;
  name: string;
  unit: string;
  dataType: string;
  aggregator: Aggregator;
  cumulative?: boolean;
  sort?: number;
}

/**
 * The limit of spec §5 ("only the first 9 or so are not limited"): a screen charts at most the
 * first 9 enabled metrics by their order, and the settings dialog lets no more than 9 be enabled.
 */
export const MAX_CHART_METRICS = 9;

const isQueryAggregator = (v: string): v is QueryAggregator =>
  (QUERY_AGGREGATORS as readonly string[]).includes(v);

/** A config's metric; its `function` (e.g. `delta`) wins over the ability's aggregator when valid. */
export const configMetric = (config: MetricConfig, index: number): ChartMetric => ({
  identifier: config.metricIdentifier,
  name: config.name || config.metricName || config.metricIdentifier,
  unit: config.unit,
  aggregator: isQueryAggregator(config.function) ? config.function : config.aggregator,
  color: config.color || paletteColor(index),
});

/** Enabled configs in their order (sort, then id), at most MAX_CHART_METRICS. */
export const chartedConfigs = (configs: readonly MetricConfig[]): MetricConfig[] =>
  configs
    .filter((c) => c.enabled)
    .sort((a, b) => a.sort - b.sort || a.id - b.id)
    .slice(0, MAX_CHART_METRICS);

/** Numeric abilities that can be lines: special metrics (运转状态, 运行时长…) left out. */
export const lineSources = <S extends MetricSource>(sources: readonly S[]): S[] =>
  sources
    .filter((s) => s.dataType === 'number' && !isSpecialMetric(s.name))
    .sort((a, b) => (a.sort ?? 0) - (b.sort ?? 0));

/**
 * An ability's metric. A counter (an ever-growing register such as EP) is charted as its
 * consumption per bucket (delta): its raw reading only climbs, which no one reads a chart for.
 */
const sourceMetric = (source: MetricSource, index: number): ChartMetric => ({
  identifier: source.identifier,
  name: source.name,
  unit: source.unit,
  aggregator: source.cumulative ? 'delta' : source.aggregator,
  color: paletteColor(index),
  ...(source.cumulative ? { cumulative: true } : {}),
});

/** Configs say nothing of counters: the ability a metric comes from does. */
const markCounters = (metrics: ChartMetric[], sources: readonly MetricSource[]): ChartMetric[] => {
  const cumulative = new Set(sources.filter((s) => s.cumulative).map((s) => s.identifier));
  return metrics.map((m) => (cumulative.has(m.identifier) ? { ...m, cumulative: true } : m));
};

/**
 * The metrics a screen charts: the enabled configs, or when the resource has none, its first 9
 * numeric abilities that are not special metrics.
 */
export function chartMetrics(
  configs: readonly MetricConfig[] | undefined,
  sources: readonly MetricSource[],
): ChartMetric[] {
  if (configs?.length)
    return markCounters(lineMetricsOnly(chartedConfigs(configs).map(configMetric)), sources);
  return lineSources(sources).slice(0, MAX_CHART_METRICS).map(sourceMetric);
}

const lineMetricsOnly = (metrics: ChartMetric[]) => metrics.filter((m) => !isSpecialMetric(m.name));

/**
 * Every metric a picker can offer: configured ones (enabled first, in their order), then the
 * other line abilities. Special metrics are left out.
 */
export function allLineMetrics(
  configs: readonly MetricConfig[] | undefined,
  sources: readonly MetricSource[],
): ChartMetric[] {
  const ordered = [...(configs ?? [])].sort(
    (a, b) => Number(b.enabled) - Number(a.enabled) || a.sort - b.sort || a.id - b.id,
  );
  const out = markCounters(lineMetricsOnly(ordered.map(configMetric)), sources);
  const known = new Set(out.map((m) => m.identifier));
  for (const s of lineSources(sources)) {
    if (known.has(s.identifier)) continue;
    known.add(s.identifier);
    out.push(sourceMetric(s, out.length));
  }
  return out;
}

/**
 * An ability as a picker names it: the name its chart's series and legend use, with its unit
 * (`有功功率 (kW)`). The identifier is added only where two abilities offered share a name.
 * @example abilityLabel({ name: '有功功率', unit: 'kW' }, 'P', []) // '有功功率 (kW)'
 */
export function abilityLabel(
  ability: { name: string; unit?: string | null },
  identifier: string,
  offered: readonly { name: string }[],
): string {
  const twice = offered.filter((o) => o.name === ability.name).length > 1;
  const extra = [ability.unit, twice ? identifier : ''].filter(Boolean).join(', ');
  return extra ? `${ability.name} (${extra})` : ability.name;
}
