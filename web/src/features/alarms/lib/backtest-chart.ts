import type { BacktestResult, PlantCalendar } from '@kilowatch/contract';
import type { ChartOption } from '../../../components/charts/index.ts';
import { plantTimeAxis } from './plant-time-axis.ts';

/**
 * The backtest chart: the metric's points as a line, each alarm it would have raised as a shaded
 * span (still active at the range's end: up to its last point).
 */
export function backtestOption(
  result: BacktestResult,
  labels: { metric: string; alarm: string },
  calendar: PlantCalendar,
): ChartOption {
  const lastTime = result.points.at(-1)?.[0] ?? 0;
  const axis = plantTimeAxis(calendar, [result.points[0]?.[0] ?? 0, lastTime]);
  return {
    animation: false,
    grid: { left: 48, right: 16, top: 24, bottom: 56 },
    tooltip: axis.tooltip,
    xAxis: axis.xAxis,
    yAxis: { type: 'value', scale: true },
    dataZoom: [{ type: 'inside' }, { type: 'slider', height: 20, bottom: 8 }],
    series: [
      {
        name: labels.metric,
        type: 'line',
        showSymbol: false,
        sampling: 'lttb',
        data: result.points,
        markArea: {
          silent: true,
          itemStyle: { color: 'rgba(245, 34, 45, 0.15)' },
          label: { show: false },
          data: result.alarms.map((a) => [
            { name: labels.alarm, xAxis: a.raisedAt },
            { xAxis: a.returnedAt ?? Math.max(lastTime, a.raisedAt) },
          ]),
        },
      },
    ],
  } as ChartOption;
}
