import type { StatisticsResult } from '@kilowatch/contract';
import type { ChartOption, ChartTheme } from '../../../../components/charts/index.ts';
import { paletteColor } from '../../../../components/charts/index.ts';
import { format2 } from './statistics.ts';

/** Series beyond this many are left to the top list: a bar chart of 200 things reads as noise. */
const MAX_CHART_SERIES = 10;

/**
 * The statistics chart: a bar per series and period, the SUM line over them (spec §9), and the
 * comparison's SUM as a dashed line; labels are the server's (YYYY-MM, MM-DD, HH:00).
 */
export function statisticsOption(
  result: StatisticsResult,
  theme: ChartTheme,
  names: { total: string; compare: string },
): ChartOption {
  const shown = [...result.series]
    .sort((a, b) => (b.total ?? Number.NEGATIVE_INFINITY) - (a.total ?? Number.NEGATIVE_INFINITY))
    .slice(0, MAX_CHART_SERIES);
  const series: ChartOption['series'] = shown.map((s, i) => ({
    type: 'bar' as const,
    name: s.name,
    data: s.values,
    itemStyle: { color: paletteColor(i) },
    barMaxWidth: 24,
  }));
  if (result.total) {
    series.push({
      type: 'line',
      name: names.total,
      data: result.total.values,
      itemStyle: { color: '#303133' },
      lineStyle: { width: 2 },
      connectNulls: false,
    });
    if (result.total.compare) {
      series.push({
        type: 'line',
        name: names.compare,
        data: result.total.compare.values,
        itemStyle: { color: '#909399' },
        lineStyle: { type: 'dashed', width: 2 },
      });
    }
  }
  return {
    grid: { ...theme.grid, containLabel: true },
    legend: { type: 'scroll', top: 0, textStyle: { fontSize: theme.fontSize } },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (value) => `${format2(typeof value === 'number' ? value : null)} ${result.unit}`,
    },
    xAxis: { type: 'category', data: result.labels, axisLabel: { fontSize: theme.fontSize } },
    yAxis: { type: 'value', name: result.unit, axisLabel: { fontSize: theme.fontSize } },
    series,
  };
}

/** The running circle: hours run against hours stopped (the screen prints the startups beside it). */
export function circleOption(
  circle: { running: number; notRunning: number },
  names: { running: string; notRunning: string },
  theme: ChartTheme,
): ChartOption {
  return {
    tooltip: {
      trigger: 'item',
      valueFormatter: (value) => format2(typeof value === 'number' ? value : null),
    },
    legend: { bottom: 0, textStyle: { fontSize: theme.fontSize } },
    series: [
      {
        type: 'pie',
        radius: ['52%', '72%'],
        center: ['50%', '45%'],
        label: { show: false },
        data: [
          { name: names.running, value: circle.running, itemStyle: { color: '#67C23A' } },
          { name: names.notRunning, value: circle.notRunning, itemStyle: { color: '#C0C4CC' } },
        ],
      },
    ],
  };
}
