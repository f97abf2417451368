import type { Aggregator, MetricConfig, MetricConfigPatch } from '@kilowatch/contract';
import type { ResourceRef } from '../../api/metric-configs.ts';
import { lineSources, MAX_CHART_METRICS, type MetricSource } from './metrics.ts';
import { isSpecialMetric } from './series.ts';
import { paletteColor } from './theme.ts';

/** A line of the metric settings dialog. */
export interface SettingRow {
  metricIdentifier: string;
  metricName: string;
  name: string;
  unit: string;
  aggregator: Aggregator;
  function: string;
  enabled: boolean;
  color: string;
}

/**
 * The dialog's rows: the resource's configs in their order, then the other line metrics of its
 * abilities. Without configs, the first 9 line metrics start enabled (what the screens show).
 */
export function settingRows(
  configs: readonly MetricConfig[],
  sources: readonly MetricSource[],
): SettingRow[] {
  const rows: SettingRow[] = [...configs]
    .sort((a, b) => a.sort - b.sort || a.id - b.id)
    .filter((c) => !isSpecialMetric(c.name || c.metricName))
    .map((c) => ({
      metricIdentifier: c.metricIdentifier,
      metricName: c.metricName,
      name: c.name || c.metricName,
      unit: c.unit,
      aggregator: c.aggregator,
      function: c.function,
      enabled: c.enabled,
      color: c.color,
    }));
  const known = new Set(rows.map((r) => r.metricIdentifier));
  const fresh = configs.length === 0;
  for (const s of lineSources(sources)) {
    if (known.has(s.identifier)) continue;
    known.add(s.identifier);
    rows.push({
      metricIdentifier: s.identifier,
      metricName: s.name,
      name: s.name,
      unit: s.unit,
      aggregator: s.aggregator,
      // A counter is charted as its consumption per bucket, as without configs (sourceMetric).
      function: s.cumulative ? 'delta' : '',
      enabled: fresh && rows.length < MAX_CHART_METRICS,
      color: '',
    });
  }
  return rows.map((r, i) => ({ ...r, color: /^#[0-9A-Fa-f]{6}$/.test(r.color) ? r.color : paletteColor(i) }));
}

/** Moves a row up (-1) or down (+1); out-of-range moves change nothing. */
export function moveRow<T>(rows: readonly T[], index: number, delta: -1 | 1): T[] {
  const target = index + delta;
  if (target < 0 || target >= rows.length) return [...rows];
  const next = [...rows];
  [next[index], next[target]] = [next[target]!, next[index]!];
  return next;
}

export const enabledCount = (rows: readonly SettingRow[]) => rows.filter((r) => r.enabled).length;

/** The PATCH body: the whole list in its order (the order is the configs' sort). */
export const toPatch = (resource: ResourceRef, rows: readonly SettingRow[]): MetricConfigPatch => ({
  resourceType: resource.resourceType,
  resourceId: resource.resourceId,
  categoryId: resource.categoryId ?? null,
  configs: rows.map((r) => ({
    metricIdentifier: r.metricIdentifier,
    metricName: r.metricName,
    name: r.name,
    enabled: r.enabled,
    unit: r.unit,
    aggregator: r.aggregator,
    function: r.function,
    color: r.color,
  })),
});
