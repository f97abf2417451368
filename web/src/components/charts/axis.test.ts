import { BarChart as BarChartPart, LineChart as LineChartPart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCartesianOption, type CartesianInput } from './options.ts';
import type { ChartSeries } from './series.ts';
import { chartTheme } from './theme.ts';

// The options are drawn by ECharts itself (server-side SVG, no canvas): labels and axis extents
// are what a user would see, not what the builder hoped for.
echarts.use([LineChartPart, BarChartPart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);
// jsdom has no canvas to measure text: an even-width estimate lays labels out as a browser would.
echarts.setPlatformAPI({
  measureText: (text: string, font?: string) => ({
    width: text.length * (Number(/(\d+)px/.exec(font ?? '')?.[1]) || 12) * 0.6,
  }),
});

const theme = chartTheme('medium', 'full');
const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 22, 2, 0, 0);
let chart: echarts.ECharts | null = null;
afterEach(() => {
  chart?.dispose();
  chart = null;
});

function draw(input: Omit<CartesianInput, 'theme'>) {
  chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 800, height: 300 });
  chart.setOption(buildCartesianOption({ ...input, theme }) as echarts.EChartsCoreOption);
  return chart;
}

/** The x axis labels as drawn. */
function xLabels(c: echarts.ECharts): string[] {
  // biome-ignore lint/suspicious/noExplicitAny: ECharts' model is not typed for this read.
  const axis = (c as any).getModel().getComponent('xAxis', 0).axis;
  return axis.getViewLabels().map((l: { formattedLabel: string }) => l.formattedLabel);
}
const extent = (c: echarts.ECharts, axis: 'xAxis' | 'yAxis', index = 0) =>
  // biome-ignore lint/suspicious/noExplicitAny: ECharts' model is not typed for this read.
  (c as any).getModel().getComponent(axis, index).axis.scale.getExtent() as [number, number];

const line = (
  name: string,
  points: [number, number | null][],
  extra: Partial<ChartSeries> = {},
): ChartSeries => ({
  name,
  points: points.map(([key, value]) => ({ key, value, complete: true })),
  ...extra,
});

describe('chart axes as ECharts draws them', () => {
  it('repeats no time label on a 5-minute real-time window', () => {
    // The device started 40 s ago: only a few points of the window have data yet.
    const points = Array.from({ length: 5 }, (_, i): [number, number] => [T0 + 260_000 + i * 10_000, i]);
    const labels = xLabels(draw({ series: [line('P', points)], window: { start: T0, end: T0 + 5 * MIN } }));
    expect(labels.length).toBeGreaterThan(1);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('repeats no date label on a two-month window either', () => {
    const day = 24 * 60 * MIN;
    const points = Array.from({ length: 60 }, (_, i): [number, number] => [T0 + i * day, i]);
    const labels = xLabels(draw({ series: [line('E', points)] }));
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('spans the requested window even with a single point', () => {
    const c = draw({ series: [line('P', [[T0 + 2 * MIN, 5]])], window: { start: T0, end: T0 + 5 * MIN } });
    expect(extent(c, 'xAxis')).toEqual([T0, T0 + 5 * MIN]);
  });

  it('starts consumption bars at zero, not at a round value under the data', () => {
    const water = line(
      'W',
      [
        [T0, 25],
        [T0 + MIN, 95],
        [T0 + 2 * MIN, 60],
      ],
      { counter: true },
    );
    expect(extent(draw({ series: [water], kind: 'bar' }), 'yAxis')[0]).toBe(0);
  });

  it('never takes a counter (energy) axis below zero', () => {
    const flat = line(
      'E',
      [
        [T0, 0],
        [T0 + MIN, 0],
        [T0 + 2 * MIN, 0],
      ],
      { counter: true },
    );
    expect(extent(draw({ series: [flat] }), 'yAxis')[0]).toBe(0);
    const steady = line(
      'E',
      [
        [T0, 120],
        [T0 + MIN, 121],
        [T0 + 2 * MIN, 121.5],
      ],
      { counter: true },
    );
    expect(extent(draw({ series: [steady] }), 'yAxis')[0]).toBeGreaterThanOrEqual(0);
    const one = line('E', [[T0, 3]], { counter: true });
    expect(extent(draw({ series: [one] }), 'yAxis')[0]).toBeGreaterThanOrEqual(0);
    // Beside a power axis that dips below zero, aligned ticks must not drag energy under zero.
    const power = line(
      'P',
      [
        [T0, -20],
        [T0 + MIN, 30],
        [T0 + 2 * MIN, 10],
      ],
      { unit: 'kW' },
    );
    const energy = line(
      'E',
      [
        [T0, 0],
        [T0 + MIN, 0.2],
        [T0 + 2 * MIN, 0.5],
      ],
      { unit: 'kWh', counter: true },
    );
    for (const series of [
      [power, energy],
      [energy, power],
    ]) {
      const c = draw({ series });
      const index = series[0] === energy ? 0 : 1;
      const [low] = extent(c, 'yAxis', index);
      expect(low).toBeGreaterThanOrEqual(0);
    }
  });
});
