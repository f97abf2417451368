import type { BacktestResult } from '@kilowatch/contract';
import type { ChartOption } from '../../../components/charts/index.ts';

/**
 * The backtest chart: the metric's points as a line, each alarm it would have raised as a shaded
 * span (still active at the range's end: up to its last point).
 */
export function backtestOption(
  result: BacktestResult,
  labels: { metric: string; alarm: string },
): ChartOption {
  const lastTime = result.points.at(-1)?.[0] ?? 0;
  return {
    animation: false,
    grid: { left: 48, right: 16, top: 24, bottom: 56 },
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'time' },
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
