import { type AlarmSpan, type PlantCalendar, processTimeZone } from '@kilowatch/contract';
import type { BarSeriesOption, LineSeriesOption, PieSeriesOption } from 'echarts/charts';
import type {
  DataZoomComponentOption,
  GridComponentOption,
  LegendComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { colorDot, type Html, html, joinHtml, tooltipHtml } from '../../lib/html.ts';
import { calendarOf } from '../../lib/plant-calendar.ts';
import {
  type AlarmTipWords,
  alarmMarksSeries,
  alarmsWithin,
  alarmTipLines,
  bucketAlarmLines,
} from './alarm-marks.ts';
import { formatPeriodLabel, type Period, periodBuckets, periodRange } from './period.ts';
import { type ChartSeries, formatValue, type Pair, pointCount, splitByCompleteness } from './series.ts';
import { type ChartTheme, paletteColor } from './theme.ts';

/**
 * Pure ECharts option builders (no ECharts import at run time), so they are tested directly and
 * every chart of the console draws series, units, incomplete buckets and large data alike.
 */

export type ChartOption = ComposeOption<
  | LineSeriesOption
  | BarSeriesOption
  | PieSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | LegendComponentOption
  | DataZoomComponentOption
>;

/** Above this many points a chart drops animation and symbols and samples lines (LTTB). */
export const LARGE_POINTS = 5000;

export interface CartesianInput {
  series: ChartSeries[];
  theme: ChartTheme;
  /** Default kind of the series that do not say. */
  kind?: 'line' | 'bar';
  /** A calendar period: a category axis with every bucket of it, labelled HH:00 / MM-DD / YYYY-MM. */
  period?: { period: Period; time: number };
  /** Legend note shown when a series has incomplete buckets (e.g. 数据不完整). */
  incompleteLabel?: string;
  /** Tooltip line of an incomplete bucket naming the devices without data (e.g. 缺少: 电表2). */
  missingLabel?: (names: string) => string;
  /** Zoom slider under the plot (history). */
  zoom?: boolean;
  /** Shows the legend (default when there are several series). */
  legend?: boolean;
  /** The requested time range [start, end): the time axis spans it whatever the data covers. */
  window?: { start: number; end: number };
  /**
   * The plant calendar (lib/plant-calendar.ts): periods and time labels are read on it, as the
   * server's buckets are. Absent only in tests: the process's zone.
   */
  calendar?: PlantCalendar;
  /** The alarms of the chart's things, drawn on a time axis (alarm-marks.ts); `now` ends an active one. */
  alarms?: { spans: readonly AlarmSpan[]; label: string; now: number; words?: AlarmTipWords };
}

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 3600_000;

/**
 * Time-axis labels and the smallest tick step they can tell apart: the clock for ranges within a
 * day, date and clock beyond, the date past a month. Ticks closer than the label's precision
 * would print the same label twice (02:00 02:00 02:00 on a young real-time window).
 */
export function timeAxisLabels(spanMs: number): { format: string; minInterval: number } {
  if (spanMs <= DAY_MS) return { format: 'HH:mm', minInterval: MINUTE_MS };
  if (spanMs <= 31 * DAY_MS) return { format: 'MM-DD HH:mm', minInterval: MINUTE_MS };
  return { format: 'YYYY-MM-DD', minInterval: DAY_MS };
}

export function timeLabelFormatter(
  spanMs: number,
  calendar: PlantCalendar = calendarOf(processTimeZone()),
): (value: number) => string {
  const { format } = timeAxisLabels(spanMs);
  return (value) => calendar.format(value, format);
}

/**
 * The lower end of a counter's axis (energy, running hours): a round value at or under the data,
 * never below zero while the data is not. ECharts' own nice extent and tick alignment across
 * several y axes may otherwise start a kWh axis at -0.2.
 */
export function counterAxisMin({ min, max }: { min: number; max: number }): number {
  if (!Number.isFinite(min) || min < 0) return min;
  const span = max - min || Math.abs(min) || 1;
  const exponent = Math.floor(Math.log10(span));
  const step = 10 ** exponent;
  // Rounded to the step's decimals: 39 × 0.1 is 3.9000000000000004 in binary floating point.
  return Math.max(0, Number((Math.floor(min / step) * step).toFixed(Math.max(0, -exponent))));
}

const timeSpan = (series: readonly ChartSeries[]): number => {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const s of series) {
    const first = s.points[0];
    const last = s.points[s.points.length - 1];
    if (first && first.key < min) min = first.key;
    if (last && last.key > max) max = last.key;
  }
  return max > min ? max - min : 0;
};

interface TooltipParam {
  seriesName?: string;
  color?: unknown;
  value?: unknown;
  axisValueLabel?: string;
  axisValue?: unknown;
}

/** Who lacked data, per series name and x value (the value as drawn: ms or a period label). */
export type MissingIndex = ReadonlyMap<
  string,
  ReadonlyMap<string | number, { names: readonly string[]; count: number }>
>;

/** Names a tooltip lists before summing up the rest: a tooltip is not a report. */
const TOOLTIP_NAMES = 8;

/** `电表1, 电表2, … (+121)`: the first names and how many more (of `count` when known). */
export function missingNames(names: readonly string[], count = names.length): string {
  const shown = names.slice(0, TOOLTIP_NAMES);
  const more = Math.max(count, names.length) - shown.length;
  return more > 0 ? `${shown.join(', ')} … (+${more})` : shown.join(', ');
}

/**
 * Axis tooltip: each series once, values with 2 decimals and their unit; a bucket that lacked
 * data says which devices were missing (`missingLabel` gets their names).
 */
export function axisTooltip(
  units: ReadonlyMap<string, string>,
  axisLabel: (value: unknown, fallback: string) => string,
  missing?: MissingIndex,
  missingLabel?: (names: string) => string,
  /** The lines of the alarms standing at the hovered x value (alarm-marks.ts `alarmTipLines`). */
  alarmLines?: (axisValue: unknown) => Html[],
): (params: unknown) => Html {
  return (params: unknown) => {
    const list = (Array.isArray(params) ? params : [params]) as TooltipParam[];
    if (!list.length) return html``;
    const seen = new Set<string>();
    const rows: Html[] = [];
    for (const p of list) {
      const name = p.seriesName ?? '';
      const value = Array.isArray(p.value) ? p.value[1] : p.value;
      if (seen.has(name) || value === null || value === undefined) continue;
      seen.add(name);
      const unit = units.get(name);
      rows.push(html`${colorDot(p.color)}${name}: ${formatValue(value)}${unit ? ` ${unit}` : ''}`);
      const x = Array.isArray(p.value) ? p.value[0] : undefined;
      const lack = x === undefined ? undefined : missing?.get(name)?.get(x as string | number);
      if (lack?.names.length && missingLabel) {
        rows.push(
          html`<span style="color:#909399">${missingLabel(missingNames(lack.names, lack.count))}</span>`,
        );
      }
    }
    const alarms = alarmLines?.(list[0]!.axisValue) ?? [];
    return joinHtml([
      html`${axisLabel(list[0]!.axisValue, list[0]!.axisValueLabel ?? '')}`,
      ...rows,
      ...alarms,
    ]);
  };
}

/**
 * The alarm lines of a hovered x value: on buckets, the alarms standing in the hovered bucket; on
 * a time axis, those within a step of the data around the hovered time (the pointer snaps to a
 * point, which may sit a little before the alarm it stands for).
 */
function alarmLinesAt(
  spans: readonly AlarmSpan[],
  words: AlarmTipWords,
  now: number,
  window: { start: number; end: number },
  series: readonly ChartSeries[],
  categories: readonly number[] | null,
  label: (key: number) => string | number,
): (axisValue: unknown) => Html[] {
  if (categories) {
    return bucketAlarmLines(
      spans,
      words,
      now,
      { starts: categories, label: (k) => String(label(k)) },
      window.end,
    );
  }
  let step = Number.POSITIVE_INFINITY;
  for (const s of series) {
    for (let i = 1; i < s.points.length; i++) {
      const gap = (s.points[i] as { key: number }).key - (s.points[i - 1] as { key: number }).key;
      if (gap > 0 && gap < step) step = gap;
    }
  }
  if (!Number.isFinite(step)) step = MINUTE_MS;
  return (value) =>
    typeof value === 'number'
      ? alarmTipLines(alarmsWithin(spans, value - step / 2, value + step, now), words)
      : [];
}

/**
 * A line/bar chart over time: one y axis per unit, solid lines for complete buckets and dashed
 * ones (with hollow symbols) around incomplete buckets, a thicker total line, dotted comparison
 * series, and for large data no animation, no symbols and LTTB sampling.
 */
export function buildCartesianOption(input: CartesianInput): ChartOption {
  const { series, theme } = input;
  const large = pointCount(series) > LARGE_POINTS;
  const units = [...new Set(series.map((s) => s.unit ?? ''))];
  const unitOf = new Map(series.map((s) => [s.name, s.unit ?? ''] as const));
  // An axis is a counter's when every series drawn on it is one.
  const counterUnits = new Set(
    units.filter((u) => series.every((s) => (s.unit ?? '') !== u || s.counter === true)),
  );
  const period = input.period;
  const calendar = input.calendar ?? calendarOf(processTimeZone());
  const categories = period ? periodBuckets(period.period, period.time, calendar) : null;
  const label = (key: number) => (period ? formatPeriodLabel(key, period.period, calendar) : key);
  const toData = (pairs: Pair[]) => pairs.map(([k, v]) => [label(k), v] as [string | number, number | null]);
  let anyIncomplete = false;
  const missing = new Map<string, Map<string | number, { names: readonly string[]; count: number }>>();
  for (const s of series) {
    for (const p of s.points) {
      if (!p.missing?.length) continue;
      let byX = missing.get(s.name);
      if (!byX) {
        byX = new Map();
        missing.set(s.name, byX);
      }
      byX.set(label(p.key), { names: p.missing, count: p.missingCount ?? p.missing.length });
    }
  }

  const echartsSeries: (LineSeriesOption | BarSeriesOption)[] = [];
  series.forEach((s, index) => {
    const color = s.color || paletteColor(index);
    const yAxisIndex = Math.max(0, units.indexOf(s.unit ?? ''));
    const kind = s.kind ?? input.kind ?? 'line';
    if (kind === 'bar') {
      const data = s.points.map((p) => {
        if (p.complete) return [label(p.key), p.value] as [string | number, number | null];
        anyIncomplete = true;
        return {
          value: [label(p.key), p.value] as [string | number, number | null],
          itemStyle: { opacity: 0.45, borderColor: color, borderWidth: 1, borderType: 'dashed' as const },
        };
      });
      echartsSeries.push({
        type: 'bar',
        name: s.name,
        data,
        yAxisIndex,
        itemStyle: { color, opacity: s.compare ? 0.5 : 1 },
        ...(s.stack ? { stack: s.stack } : {}),
        barMaxWidth: 24,
        large,
        largeThreshold: LARGE_POINTS,
        animation: !large,
      });
      return;
    }
    const { solid, dashed, incomplete } = splitByCompleteness(s.points);
    const lineStyle = {
      color,
      width: s.total ? 3 : 2,
      type: s.compare ? ('dotted' as const) : ('solid' as const),
      opacity: s.compare ? 0.7 : 1,
    };
    const common = {
      type: 'line' as const,
      name: s.name,
      yAxisIndex,
      itemStyle: { color },
      connectNulls: false,
      animation: !large,
      ...(large
        ? { sampling: 'lttb' as const, progressive: LARGE_POINTS, progressiveThreshold: LARGE_POINTS }
        : {}),
    };
    echartsSeries.push({
      ...common,
      data: toData(solid),
      lineStyle,
      showSymbol: !large && s.points.length <= 60,
      symbolSize: 4,
      z: s.total ? 3 : 2,
    });
    if (incomplete.length) {
      anyIncomplete = true;
      const hollow = new Set(incomplete.map(([k]) => k));
      echartsSeries.push({
        ...common,
        // Same name as the solid part: the legend toggles both together.
        data: dashed.map(([k, v]) =>
          v !== null && hollow.has(k)
            ? { value: [label(k), v], symbol: 'emptyCircle', symbolSize: 6 }
            : [label(k), v],
        ),
        lineStyle: { ...lineStyle, type: 'dashed' },
        symbol: 'none',
        showSymbol: true,
        sampling: undefined,
        z: 2,
      });
    }
  });

  if (anyIncomplete && input.incompleteLabel) {
    // An empty series only for the legend: a dashed line with a hollow symbol explains the look.
    echartsSeries.push({
      type: 'line',
      name: input.incompleteLabel,
      data: [],
      symbol: 'emptyCircle',
      itemStyle: { color: '#909399' },
      lineStyle: { type: 'dashed', color: '#909399' },
    });
  }

  const window = input.window && input.window.end > input.window.start ? input.window : undefined;
  // On a period's buckets the marks fall on the bucket holding each alarm.
  const markWindow = categories && period ? periodRange(period.period, period.time, calendar) : window;
  const alarmMarks =
    markWindow && input.alarms
      ? alarmMarksSeries(
          input.alarms.spans,
          markWindow,
          input.alarms.now,
          { series: input.alarms.label },
          categories ? { starts: categories, label: (k) => String(label(k)) } : undefined,
        )
      : null;
  if (alarmMarks) echartsSeries.push(alarmMarks);
  const alarmLines =
    alarmMarks && input.alarms?.words && markWindow
      ? alarmLinesAt(
          input.alarms.spans,
          input.alarms.words,
          input.alarms.now,
          markWindow,
          series,
          categories,
          label,
        )
      : undefined;
  const showLegend = input.legend ?? (series.length > 1 || anyIncomplete || alarmMarks !== null);
  const span = window ? window.end - window.start : timeSpan(series);
  const timeLabels = timeAxisLabels(span);
  const spanLabel = timeLabelFormatter(span, calendar);
  const axisLabel = (value: unknown, fallback: string) =>
    period
      ? String(value ?? fallback)
      : typeof value === 'number'
        ? calendar.format(value, 'YYYY-MM-DD HH:mm:ss')
        : fallback;

  return {
    animation: !large,
    color: series.map((s, i) => s.color || paletteColor(i)),
    textStyle: { fontSize: theme.fontSize },
    grid: {
      ...theme.grid,
      top: theme.grid.top + (showLegend ? 8 : 0),
      bottom: theme.grid.bottom + (input.zoom ? 32 : 0),
      right:
        theme.grid.right + Math.max(0, Math.ceil(units.length / 2) - 1) * 50 + (units.length > 1 ? 30 : 0),
      left: theme.grid.left + Math.max(0, Math.ceil((units.length - 1) / 2)) * 50,
      // ECharts 6: `containLabel` needs a legacy module; this keeps axis labels and names
      // (units of the right-hand axes) inside the chart instead of cut at its edge.
      outerBoundsMode: 'same',
      outerBoundsContain: 'all',
    },
    legend: showLegend
      ? { type: 'scroll', top: 0, textStyle: { fontSize: theme.fontSize } }
      : { show: false },
    tooltip: {
      trigger: 'axis',
      confine: true,
      // Named, so the browser suite can read what a user reads.
      className: 'kw-chart-tooltip',
      formatter: tooltipHtml(
        axisTooltip(unitOf, axisLabel, missing, input.missingLabel, alarmLines),
      ) as TooltipComponentOption['formatter'],
    },
    xAxis: categories
      ? {
          type: 'category',
          data: categories.map((k) => label(k) as string),
          boundaryGap: (input.kind ?? 'line') === 'bar',
          axisLabel: { fontSize: theme.fontSize },
        }
      : {
          type: 'time',
          min: window?.start,
          max: window?.end,
          minInterval: timeLabels.minInterval,
          axisLabel: { fontSize: theme.fontSize, formatter: spanLabel, hideOverlap: true },
        },
    yAxis: (units.length ? units : ['']).map((unit, i) => ({
      type: 'value' as const,
      name: unit,
      position: i % 2 === 0 ? ('left' as const) : ('right' as const),
      offset: Math.floor(i / 2) * 50,
      // Bars measure from zero (a consumption bar cut at 1 misleads); lines may zoom to their range.
      scale: (input.kind ?? 'line') !== 'bar',
      // Bars always start at zero (no `scale`); a counter's line starts at or above it.
      ...(counterUnits.has(unit) && (input.kind ?? 'line') !== 'bar' ? { min: counterAxisMin } : {}),
      alignTicks: units.length > 1,
      axisLabel: { fontSize: theme.fontSize },
      splitLine: { show: i === 0 },
    })),
    dataZoom: input.zoom
      ? [
          { type: 'inside', xAxisIndex: 0 },
          { type: 'slider', xAxisIndex: 0, height: 20, bottom: 8 },
        ]
      : [],
    series: echartsSeries,
  };
}

export interface PieItem {
  name: string;
  value: number | null;
  color?: string;
}

/** A pie (or ring with `ring`) of named values, labels with 2 decimals. */
export function buildPieOption(items: readonly PieItem[], theme: ChartTheme, ring = false): ChartOption {
  return {
    textStyle: { fontSize: theme.fontSize },
    tooltip: {
      trigger: 'item',
      formatter: tooltipHtml(
        (p: { name?: string; value?: unknown; percent?: number }) =>
          html`${p.name ?? ''}: ${formatValue(p.value)} (${formatValue(p.percent ?? 0)}%)`,
      ) as TooltipComponentOption['formatter'],
    },
    legend: { type: 'scroll', bottom: 0, textStyle: { fontSize: theme.fontSize } },
    series: [
      {
        type: 'pie',
        radius: ring ? ['45%', '70%'] : '70%',
        data: items.map((item, i) => ({
          name: item.name,
          value: item.value ?? 0,
          itemStyle: { color: item.color || paletteColor(i) },
        })),
        // Drawn on the canvas as text (the tooltip is the HTML part): a name shows as typed.
        label: { formatter: '{b}: {d}%' },
      },
    ],
  };
}
