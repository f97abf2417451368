import { DEFAULT_THEME_COLOR } from '@kilowatch/contract';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { tooltipHtml } from '../../lib/html.ts';
import {
  axisTooltip,
  buildCartesianOption,
  buildPieOption,
  counterAxisMin,
  LARGE_POINTS,
  missingNames,
} from './options.ts';
import type { ChartSeries } from './series.ts';
import { chartTheme } from './theme.ts';

const theme = chartTheme('medium', 'full');
const series = (name: string, n: number, extra: Partial<ChartSeries> = {}): ChartSeries => ({
  name,
  points: Array.from({ length: n }, (_, i) => ({ key: i * 1000, value: i, complete: true })),
  ...extra,
});
type AnySeries = {
  name?: string;
  type?: string;
  sampling?: string;
  lineStyle?: { type?: string };
  animation?: boolean;
  large?: boolean;
  data?: unknown[];
  showSymbol?: boolean;
  yAxisIndex?: number;
};
const list = (o: ReturnType<typeof buildCartesianOption>) => o.series as AnySeries[];

const axisTooltipText = (...args: Parameters<typeof axisTooltip>) => tooltipHtml(axisTooltip(...args));

const HOSTILE = '<img src=x onerror="window.__xss=1">';
const ESCAPED = '&lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;';

describe('buildCartesianOption', () => {
  it('starts with the theme colour #409EFF', () => {
    const o = buildCartesianOption({ series: [series('a', 3), series('b', 3)], theme });
    expect((o.color as string[])[0]).toBe(DEFAULT_THEME_COLOR);
  });

  it('stays smooth with 100k points: no animation, no symbols, LTTB sampling', () => {
    const o = buildCartesianOption({ series: [series('big', 100_000)], theme });
    expect(o.animation).toBe(false);
    const [line] = list(o);
    expect(line).toMatchObject({ sampling: 'lttb', animation: false, showSymbol: false });
    expect(line!.data).toHaveLength(100_000);
    const bars = buildCartesianOption({ series: [series('big', LARGE_POINTS + 1)], theme, kind: 'bar' });
    expect(list(bars)[0]).toMatchObject({ type: 'bar', large: true });
  });

  it('keeps animation for small charts', () => {
    expect(buildCartesianOption({ series: [series('s', 10)], theme }).animation).toBe(true);
  });

  it('gives each unit its own y axis', () => {
    const o = buildCartesianOption({
      series: [series('p', 3, { unit: 'kW' }), series('t', 3, { unit: '℃' }), series('q', 3, { unit: 'kW' })],
      theme,
    });
    expect((o.yAxis as { name: string }[]).map((a) => a.name)).toEqual(['kW', '℃']);
    expect(list(o).map((s) => s.yAxisIndex)).toEqual([0, 1, 0]);
  });

  it('draws incomplete buckets dashed, with a legend note', () => {
    const s: ChartSeries = {
      name: '功率',
      points: [
        { key: 0, value: 1, complete: true },
        { key: 1, value: 2, complete: true },
        { key: 2, value: 3, complete: false },
      ],
    };
    const o = buildCartesianOption({ series: [s], theme, incompleteLabel: '数据不完整' });
    const parts = list(o);
    expect(parts.map((p) => p.name)).toEqual(['功率', '功率', '数据不完整']);
    expect(parts[1]!.lineStyle?.type).toBe('dashed');
    expect(parts[1]!.data).toContainEqual({ value: [2, 3], symbol: 'emptyCircle', symbolSize: 6 });
    expect(parts[2]!.data).toEqual([]);
  });

  it('adds no note when every bucket is complete', () => {
    const o = buildCartesianOption({ series: [series('a', 3)], theme, incompleteLabel: '数据不完整' });
    expect(list(o).map((p) => p.name)).toEqual(['a']);
  });

  it('labels a calendar period on a category axis', () => {
    const day = dayjs('2024-03-05').valueOf();
    const s: ChartSeries = {
      name: 'kWh',
      points: [{ key: dayjs('2024-03-05 14:00').valueOf(), value: 5, complete: true }],
    };
    const o = buildCartesianOption({ series: [s], theme, period: { period: 'day', time: day }, kind: 'bar' });
    const x = o.xAxis as { type: string; data: string[] };
    expect(x.type).toBe('category');
    expect(x.data).toHaveLength(24);
    expect(x.data[14]).toBe('14:00');
    expect(list(o)[0]!.data).toEqual([['14:00', 5]]);
  });
});

describe('tooltip', () => {
  it('shows each series once with 2 decimals and its unit', () => {
    const format = axisTooltipText(new Map([['功率', 'kW']]), () => '10:00');
    const html = format([
      { seriesName: '功率', marker: '', value: [0, 1.23456] },
      { seriesName: '功率', marker: '', value: [0, 1.23456] },
    ]);
    expect(html).toBe('10:00<br/>功率: 1.23 kW');
  });

  it('shows hostile series names, units and axis labels as text', () => {
    const format = axisTooltipText(new Map([[HOSTILE, HOSTILE]]), () => HOSTILE);
    const html = format([{ seriesName: HOSTILE, color: 'red" onmouseover="x', value: [0, 1] }]);
    expect(html).toBe(`${ESCAPED}<br/>${ESCAPED}: 1.00 ${ESCAPED}`);
    expect(html).not.toContain('<img');
  });
});

describe('buildPieOption', () => {
  it('colours slices from the palette', () => {
    const o = buildPieOption([{ name: 'a', value: 1 }], theme);
    const [pie] = o.series as { data: { itemStyle: { color: string } }[] }[];
    expect(pie!.data[0]!.itemStyle.color).toBe(DEFAULT_THEME_COLOR);
  });

  it('shows a hostile slice name in its tooltip as text', () => {
    const o = buildPieOption([{ name: HOSTILE, value: 3 }], theme) as {
      tooltip: { formatter: (p: unknown) => string };
    };
    const html = o.tooltip.formatter({ name: HOSTILE, value: 3, percent: 100 });
    expect(html).toBe(`${ESCAPED}: 3.00 (100.00%)`);
    expect(html).not.toContain('<img');
  });
});

describe('counterAxisMin', () => {
  it('starts at a round value under the data, never below zero, never a float artefact', () => {
    expect(counterAxisMin({ min: 3.95, max: 4.8 })).toBe(3.9);
    expect(counterAxisMin({ min: 0.3, max: 120 })).toBe(0);
    expect(counterAxisMin({ min: 51353.11, max: 51360 })).toBe(51353);
    expect(counterAxisMin({ min: 0, max: 0 })).toBe(0);
    // Negative data (a formula, an export meter) keeps its own extent.
    expect(counterAxisMin({ min: -5, max: 3 })).toBe(-5);
  });
});

describe('tooltip of an incomplete bucket', () => {
  it('names the devices that lacked data', () => {
    const missing = new Map([['一车间', new Map([[60_000, { names: ['电表2', '电表<3>'], count: 2 }]])]]);
    const format = axisTooltipText(
      new Map([['一车间', 'kW']]),
      () => '10:01',
      missing,
      (n) => `缺少数据：${n}`,
    );
    expect(format([{ seriesName: '一车间', marker: '', value: [60_000, 13] }])).toBe(
      '10:01<br/>一车间: 13.00 kW<br/><span style="color:#909399">缺少数据：电表2, 电表&lt;3&gt;</span>',
    );
  });
});

describe('missingNames', () => {
  it('lists at most 8 names and how many more, counting past the server cap', () => {
    const names = Array.from({ length: 20 }, (_, i) => `电表${i + 1}`);
    expect(missingNames(names.slice(0, 2))).toBe('电表1, 电表2');
    expect(missingNames(names, 129)).toBe('电表1, 电表2, 电表3, 电表4, 电表5, 电表6, 电表7, 电表8 … (+121)');
  });
});
