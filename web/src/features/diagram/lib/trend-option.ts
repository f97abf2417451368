import type { AlarmSpan } from '@kilowatch/contract';
import type { AlarmTipWords } from '../../../components/charts/alarm-marks.ts';
import { alarmMarksSeries, bucketAlarmLines } from '../../../components/charts/alarm-marks.ts';
import { axisTooltip, type ChartOption } from '../../../components/charts/options.ts';
import { tooltipHtml } from '../../../lib/html.ts';

export interface TrendLine {
  name: string;
  points: { key: number; value: number | null }[];
}

export interface TrendInput {
  /** Loss % of a busbar, or the imbalance % of each phase quantity, on the same buckets. */
  lines: readonly TrendLine[];
  threshold: number;
  thresholdLabel: string;
  /** A bucket's start as its category (MM-DD HH:mm on the plant calendar). */
  time: (key: number) => string;
  /** The alarms of the trend's devices (`useAlarmSpans`) and the words of their marks. */
  alarms: readonly AlarmSpan[];
  marks: { series: string; words: AlarmTipWords };
  now: number;
}

/**
 * The option of a diagram symbol's detail trend: percent lines on the buckets' categories, the
 * threshold dashed, and the alarms of its devices marked on the bucket holding each (alarm-marks.ts),
 * listed in the tooltip of the hovered bucket with every name escaped (lib/html.ts).
 */
export function trendOption(input: TrendInput): ChartOption {
  const { lines, time, alarms, now } = input;
  const starts = (lines[0]?.points ?? []).map((p) => p.key);
  const buckets = { starts, label: time };
  const marks =
    alarms.length && starts.length
      ? alarmMarksSeries(alarms, { start: starts[0] as number, end: now }, now, input.marks, buckets)
      : null;
  const units = new Map(lines.map((l) => [l.name, '%'] as const));
  return {
    tooltip: {
      trigger: 'axis',
      confine: true,
      className: 'kw-chart-tooltip',
      formatter: tooltipHtml(
        axisTooltip(
          units,
          (_value, fallback) => fallback,
          undefined,
          undefined,
          marks ? bucketAlarmLines(alarms, input.marks.words, now, buckets, now) : undefined,
        ),
      ) as never,
    },
    legend: { top: 0 },
    grid: { left: 48, right: 16, top: 32, bottom: 28 },
    xAxis: { type: 'category', data: starts.map(time) },
    yAxis: { type: 'value', name: '%' },
    series: [
      ...lines.map((l, i) => ({
        type: 'line' as const,
        name: l.name,
        showSymbol: false,
        connectNulls: false,
        data: l.points.map((p) => (p.value === null ? null : Number(p.value.toFixed(3)))),
        ...(i === 0
          ? {
              markLine: {
                symbol: 'none',
                lineStyle: { color: '#cf1322', type: 'dashed' as const },
                label: { formatter: input.thresholdLabel },
                data: [{ yAxis: input.threshold }],
              },
            }
          : {}),
      })),
      ...(marks ? [marks] : []),
    ],
  } as ChartOption;
}
