import type { AlarmCondition, AlarmDetail, PlantCalendar } from '@kilowatch/contract';
import type { ChartOption } from '../../../components/charts/index.ts';
import { plantTimeAxis } from './plant-time-axis.ts';

/** How much of the metric shows before the alarm and after its return. */
const CHART_MARGIN_MS = 3_600_000;

/**
 * The detail chart's range: from an hour before the alarm to an hour after its return, or to now
 * while it is active (never past now: there is nothing to read there yet).
 */
export function alarmChartRange(
  alarm: Pick<AlarmDetail, 'alarmAt' | 'returnedAt'>,
  now: number,
): { start: number; end: number; spanEnd: number } {
  const at = Date.parse(alarm.alarmAt);
  const returned = alarm.returnedAt === null ? null : Date.parse(alarm.returnedAt);
  const start = at - CHART_MARGIN_MS;
  const spanEnd = returned ?? Math.max(now, at);
  const end = Math.max(Math.min(spanEnd + CHART_MARGIN_MS, now), at + 1);
  return { start, end, spanEnd };
}

/** The limits a condition draws on the chart: a threshold's value, a range's two ends. */
export function limitsOf(condition: AlarmCondition | undefined): number[] {
  if (!condition) return [];
  if (condition.kind === 'threshold') return [condition.value];
  if (condition.kind === 'range') return [condition.low, condition.high];
  return [];
}

/** The metric as a line, the rule's limits as dashed lines, the alarm's span shaded. */
export function alarmChartOption(
  points: readonly [number, number][],
  marks: { limits: readonly number[]; span: [number, number]; window: [number, number] },
  labels: { metric: string; alarm: string; limit: string },
  calendar: PlantCalendar,
): ChartOption {
  const axis = plantTimeAxis(calendar, marks.window);
  return {
    animation: false,
    grid: { left: 48, right: 24, top: 24, bottom: 32 },
    tooltip: axis.tooltip,
    // The chart's own range: a lone point would otherwise stretch the axis over days.
    xAxis: { ...axis.xAxis, min: marks.window[0], max: marks.window[1] },
    // The limits stay in view even when the values never come near them.
    yAxis: {
      type: 'value',
      scale: true,
      ...(marks.limits.length > 0
        ? {
            min: (v: { min: number }) => Math.min(v.min, ...marks.limits),
            max: (v: { max: number }) => Math.max(v.max, ...marks.limits),
          }
        : {}),
    },
    series: [
      {
        name: labels.metric,
        type: 'line',
        showSymbol: points.length < 3,
        data: points,
        markLine: {
          silent: true,
          symbol: 'none',
          lineStyle: { color: '#cf1322', type: 'dashed' },
          label: { formatter: `${labels.limit} {c}`, position: 'insideEndTop' },
          data: marks.limits.map((yAxis) => ({ yAxis })),
        },
        markArea: {
          silent: true,
          itemStyle: { color: 'rgba(245, 34, 45, 0.12)' },
          label: { show: true, position: 'insideTop', color: '#a8071a' },
          data: [[{ name: labels.alarm, xAxis: marks.span[0] }, { xAxis: marks.span[1] }]],
        },
      },
    ],
  } as ChartOption;
}
