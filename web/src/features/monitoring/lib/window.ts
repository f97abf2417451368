import type { MetricQuery } from '@kilowatch/contract';
import { DEFAULT_HISTORY_HOURS, type PlantCalendar, REALTIME_WINDOW_MINUTES } from '@kilowatch/contract';
import { isConsumption } from '../../../components/charts/labels.ts';
import type { ChartMetric } from '../../../components/charts/metrics.ts';
import type { Selection } from './tree.ts';

/** Time windows and query bodies of the real-time and history views (spec §4, §9). */

/** The "last N hours" choices of the history view. */
export const HISTORY_HOURS = [1, 2, 6, 12, 24, 72] as const;

/** Most points a history series asks for (buckets or downsampling). */
const MAX_HISTORY_POINTS = 2000;
/** Up to this span, raw points (downsampled by the server to MAX_HISTORY_POINTS). */
const RAW_SPAN_MS = 6 * 3600_000;

export type HistoryWindow = { kind: 'hours'; hours: number } | { kind: 'range'; start: number; end: number };

export const DEFAULT_HISTORY_WINDOW: HistoryWindow = { kind: 'hours', hours: DEFAULT_HISTORY_HOURS };

/** [start, end) in ms: the last N hours before `now`, or the chosen range. */
export function resolveWindow(window: HistoryWindow, now: number): { start: number; end: number } {
  if (window.kind === 'range') return { start: window.start, end: window.end };
  return { start: now - window.hours * 3600_000, end: now };
}

/** Reads the window from the address (`hours=` or `start=&end=`), defaulting to the last hour. */
export function parseWindow(params: URLSearchParams): HistoryWindow {
  const start = Number(params.get('start'));
  const end = Number(params.get('end'));
  if (
    params.get('start') &&
    params.get('end') &&
    Number.isFinite(start) &&
    Number.isFinite(end) &&
    end > start
  ) {
    return { kind: 'range', start, end };
  }
  const hours = Number(params.get('hours'));
  return (HISTORY_HOURS as readonly number[]).includes(hours)
    ? { kind: 'hours', hours }
    : DEFAULT_HISTORY_WINDOW;
}

/**
 * How to ask for a span: up to 6 h raw points downsampled to 2000 (maxPoints); beyond, automatic
 * buckets of at most 2000 points, whose width the server picks from the one bucket table
 * (contract BUCKET_WIDTHS) and names in its answer (`bucket`).
 * @example bucketFor(0, 24 * 3600_000) // { groupByTime: 'auto', maxPoints: 2000 }
 */
export function bucketFor(
  start: number,
  end: number,
): { maxPoints: number } | { groupByTime: 'auto'; maxPoints: number } {
  const span = Math.max(0, end - start);
  if (span <= RAW_SPAN_MS) return { maxPoints: MAX_HISTORY_POINTS };
  return { groupByTime: 'auto', maxPoints: MAX_HISTORY_POINTS };
}

/**
 * The body for one metric of a resource. Regions include descendants' things. With a category
 * chosen, a region answers one series per thing (`combine: 'none'`) and additive metrics get a
 * total line on top; without one (a whole plant: dozens of meters) it answers the region's own
 * series, combined by the metric's nature on the server.
 */
function metricQuery(
  selection: Selection,
  metric: ChartMetric,
  range: { start: number; end: number },
  categoryId: number | null,
): MetricQuery {
  const region = selection.resourceType === 'region';
  return {
    resourceType: selection.resourceType,
    resourceId: selection.resourceId,
    metricIdentifier: metric.identifier,
    metricName: metric.name,
    aggregator: metric.aggregator,
    startTime: range.start,
    endTime: range.end,
    unit: metric.unit || undefined,
    ...(region
      ? {
          successor: true,
          categoryId: categoryId ?? undefined,
          ...(categoryId ? { combine: 'none' as const } : {}),
        }
      : {}),
  };
}

/** The real-time window of a tick: the last 5 minutes before it (`seq` is the tick's Date.now()). */
export function realtimeWindow(seq: string): { start: number; end: number } {
  const end = Number(seq);
  return { start: end - REALTIME_WINDOW_MINUTES * 60_000, end };
}

/**
 * The real-time body: the tick's window. A consumption metric is asked per minute (a thing's
 * raw points would be the counter's register, not what it consumed), so its chart and its
 * label say "per minute".
 */
export function realtimeQuery(
  selection: Selection,
  metric: ChartMetric,
  seq: string,
  categoryId: number | null,
): MetricQuery {
  const query = metricQuery(selection, metric, realtimeWindow(seq), categoryId);
  return isConsumption(metric) ? { ...query, groupByTime: 'minute', groupByInterval: 1 } : query;
}

/**
 * A consumption metric's total over the plant's current day (the tick's day on the plant
 * calendar): one day bucket, combined over a region's things by the server.
 */
export function todayQuery(
  selection: Selection,
  metric: ChartMetric,
  seq: string,
  categoryId: number | null,
  calendar: PlantCalendar,
): MetricQuery {
  const range = calendar.periodRange('day', Number(seq));
  const { combine: _perThing, ...query } = metricQuery(selection, metric, range, categoryId);
  return { ...query, groupByTime: 'day', groupByInterval: 1 };
}

/** The history body: window plus buckets or downsampling. */
export function historyQuery(
  selection: Selection,
  metric: ChartMetric,
  range: { start: number; end: number },
  categoryId: number | null,
): MetricQuery {
  const query = metricQuery(selection, metric, range, categoryId);
  // Consumption is per bucket even over short spans: raw points would plot the register.
  if (isConsumption(metric)) return { ...query, groupByTime: 'auto', maxPoints: MAX_HISTORY_POINTS };
  return { ...query, ...bucketFor(range.start, range.end) };
}

/**
 * A counter's value over the whole window (运行时长, 启动次数, 停机时长): buckets as large as the
 * window (split at most in two by bucket alignment), summed across things.
 */
export function summaryQuery(
  selection: Selection,
  metric: ChartMetric,
  range: { start: number; end: number },
  categoryId: number | null,
): MetricQuery {
  const minutes = Math.max(1, Math.min(100000, Math.ceil((range.end - range.start) / 60_000)));
  // One figure for a region: the server combines its things by the metric's nature (contract
  // defaultCombine), so the per-thing `combine: 'none'` of the line query is dropped.
  const { combine: _perThing, ...query } = metricQuery(selection, metric, range, categoryId);
  return { ...query, groupByTime: 'minute', groupByInterval: minutes };
}
