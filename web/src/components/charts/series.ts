import { type DataPoint, SERIES_DECIMALS, toMillis } from '@kilowatch/contract';

/**
 * Pure series helpers shared by every chart (monitoring, home, later analysis and KPI): grouping
 * the query answer into series, the total line of additive metrics, the special metrics kept out
 * of line series (spec §9) and the two-decimal number format.
 */

/** The status metric: shown as a tag (运行/停机), never as a line. */
const STATUS_METRIC = '运转状态';
/** Counters shown as numbers, never as lines (spec §9). */
const COUNTER_METRICS = ['运行时长', '启动次数', '停机时长'] as const;
const SPECIAL_METRICS = [STATUS_METRIC, ...COUNTER_METRICS] as const;

const normalise = (name: string | null | undefined) => (name ?? '').trim();

/** True for 运转状态, 运行时长, 启动次数 and 停机时长 (matched on the metric's name). */
export const isSpecialMetric = (name: string | null | undefined): boolean =>
  (SPECIAL_METRICS as readonly string[]).includes(normalise(name));
export const isStatusMetric = (name: string | null | undefined): boolean => normalise(name) === STATUS_METRIC;
export const isCounterMetric = (name: string | null | undefined): boolean =>
  (COUNTER_METRICS as readonly string[]).includes(normalise(name));

/** Keeps the metrics that may be drawn as line series. */
export const lineMetrics = <T extends { name: string }>(metrics: readonly T[]): T[] =>
  metrics.filter((m) => !isSpecialMetric(m.name));

/**
 * A value with the spec's 2 decimals; strings pass through, empty values become '-'.
 * @example formatValue(3.14159) // '3.14'
 */
export function formatValue(value: unknown, decimals: number = SERIES_DECIMALS): string {
  if (typeof value === 'number') return Number.isFinite(value) ? value.toFixed(decimals) : '-';
  if (value === null || value === undefined || value === '') return '-';
  return String(value);
}

/** Units of things counted, not measured: their values are whole numbers. */
const COUNT_UNITS = new Set(['次', '件', '个', '台', 'times', 'pcs']);

/**
 * A reading as people read it: counts (启动次数 in 次, 产量 in 件) whole, with thousands
 * separators; measures with the spec's 2 decimals. Strings pass through, empty values are '-'.
 * @example formatReading(61918, '次') // '61,918'
 * @example formatReading(3.14159, 'kW') // '3.14'
 */
export function formatReading(value: unknown, unit?: string | null): string {
  if (
    typeof value === 'number' &&
    Number.isFinite(value) &&
    COUNT_UNITS.has(unit ?? '') &&
    Number.isInteger(value)
  )
    return value.toLocaleString('en-US');
  return formatValue(value);
}

/** A value with its unit: `12.30 kW`. */
export const formatWithUnit = (value: unknown, unit?: string | null): string => {
  const text = formatValue(value);
  return unit && text !== '-' ? `${text} ${unit}` : text;
};

export interface SeriesPoint {
  /** Bucket start in ms. */
  key: number;
  value: number | null;
  complete: boolean;
  /** Incomplete buckets of a combined series: the devices that lacked data. */
  missing?: readonly string[];
  /** How many lacked data when `missing` names only the first ones (server cap). */
  missingCount?: number;
}

export interface ChartSeries {
  /** Legend name. */
  name: string;
  points: SeriesPoint[];
  color?: string;
  unit?: string;
  /** The sum of the other series of the same metric (SUM aggregator). */
  total?: boolean;
  /** A year-on-year comparison series shifted onto the base axis. */
  compare?: boolean;
  kind?: 'line' | 'bar';
  /** Bars of the same stack pile up (a KPI report's bar-accumulation). */
  stack?: string;
  /** A counter or consumption (energy, counts): its axis never goes below zero for it. */
  counter?: boolean;
  /** The metric the series belongs to (top-N groups per metric) and how its values combine. */
  metric?: string;
  aggregator?: string | null;
}

/** Aggregators whose values add up across things, so a total line makes sense. */
const ADDITIVE_AGGREGATORS: readonly string[] = ['sum', 'delta'];
export const isAdditive = (aggregator: string | null | undefined) =>
  ADDITIVE_AGGREGATORS.includes(aggregator ?? '');

/** Points grouped by `group` (first-seen order), keys in ms (10-digit seconds converted), sorted. */
export function groupPoints(points: readonly DataPoint[]): Map<string, SeriesPoint[]> {
  const groups = new Map<string, SeriesPoint[]>();
  for (const p of points) {
    let list = groups.get(p.group);
    if (!list) {
      list = [];
      groups.set(p.group, list);
    }
    const point: SeriesPoint = { key: toMillis(p.key), value: p.value, complete: p.complete !== false };
    if (p.missing?.length) point.missing = p.missing;
    if (p.missingCount !== undefined && p.missingCount > (p.missing?.length ?? 0))
      point.missingCount = p.missingCount;
    list.push(point);
  }
  for (const list of groups.values()) list.sort((a, b) => a.key - b.key);
  return groups;
}

/**
 * Sum per key over several series. A key's total is incomplete when any series lacks the key or
 * has an incomplete bucket there; it is null only when every series is null at that key.
 */
export function totalLine(
  series: readonly (readonly SeriesPoint[])[],
  names?: readonly string[],
): SeriesPoint[] {
  type Acc = { sum: number; seen: Set<number>; valued: number; short: string[] };
  const byKey = new Map<number, Acc>();
  series.forEach((points, index) => {
    for (const p of points) {
      const acc = byKey.get(p.key) ?? { sum: 0, seen: new Set<number>(), valued: 0, short: [] };
      acc.seen.add(index);
      if (p.value !== null) {
        acc.sum += p.value;
        acc.valued += 1;
      }
      if (!p.complete || p.value === null) acc.short.push(names?.[index] ?? '');
      byKey.set(p.key, acc);
    }
  });
  return [...byKey.entries()]
    .sort(([a], [b]) => a - b)
    .map(([key, acc]) => {
      const absent = series.map((_, i) => i).filter((i) => !acc.seen.has(i));
      const complete = acc.short.length === 0 && absent.length === 0;
      const point: SeriesPoint = { key, value: acc.valued ? acc.sum : null, complete };
      if (!complete && names) point.missing = [...acc.short, ...absent.map((i) => names[i] ?? '')];
      return point;
    });
}

export interface BuildSeriesOptions {
  /** Metric name: the series name when the answer has a single group. */
  name: string;
  aggregator?: string | null;
  color?: string;
  unit?: string;
  /** Legend name of the total line, e.g. 合计. */
  totalName: string;
  /** Legend name for a group when several come back (default: the group). */
  label?: (group: string) => string;
  /** A counter or consumption: its axis starts at zero or above (see `isCounterSeries`). */
  counter?: boolean;
}

/** Counters and consumption: cumulative abilities, and the delta or count of any metric. */
export const isCounterSeries = (metric: { aggregator?: string | null; cumulative?: boolean }) =>
  metric.cumulative === true || metric.aggregator === 'delta' || metric.aggregator === 'count';

/**
 * One series per group of the answer; with an additive aggregator (SUM) and several groups, a
 * total line is added. Special metrics (运行时长…) give no series at all.
 */
export function buildSeries(points: readonly DataPoint[], options: BuildSeriesOptions): ChartSeries[] {
  if (isSpecialMetric(options.name)) return [];
  const groups = groupPoints(points);
  const base: Partial<ChartSeries> = {
    unit: options.unit,
    metric: options.name,
    aggregator: options.aggregator ?? null,
    ...(options.counter || isCounterSeries(options) ? { counter: true } : {}),
  };
  if (groups.size <= 1) {
    const only = [...groups.values()][0] ?? [];
    return [{ ...base, name: options.name, points: only, color: options.color }];
  }
  const label = options.label ?? ((g: string) => g);
  const series: ChartSeries[] = [...groups.entries()].map(([group, list]) => ({
    ...base,
    name: label(group),
    points: list,
  }));
  if (isAdditive(options.aggregator)) {
    series.unshift({
      ...base,
      name: options.totalName,
      points: totalLine([...groups.values()], [...groups.keys()]),
      color: options.color,
      total: true,
    });
  }
  return series;
}

/** [ms, value] pairs; a null value breaks the line. */
export type Pair = [number, number | null];

/**
 * Splits a series into its complete part (solid) and the segments touching an incomplete bucket
 * (dashed). Segments never overlap: a segment between two complete buckets is solid, any other
 * dashed; gaps (null values) break both. `incomplete` lists the incomplete buckets for hollow
 * symbols.
 */
export function splitByCompleteness(points: readonly SeriesPoint[]): {
  solid: Pair[];
  dashed: Pair[];
  incomplete: Pair[];
} {
  const solid: Pair[] = [];
  const dashed: Pair[] = [];
  const drawn = new Set<number>();
  const append = (target: Pair[], a: SeriesPoint, b: SeriesPoint) => {
    const last = target[target.length - 1];
    if (last && last[0] === a.key && last[1] !== null) {
      target.push([b.key, b.value]);
      return;
    }
    if (last) target.push([a.key, null]);
    target.push([a.key, a.value], [b.key, b.value]);
  };
  for (let i = 0; i + 1 < points.length; i++) {
    const a = points[i]!;
    const b = points[i + 1]!;
    if (a.value === null || b.value === null) continue;
    append(a.complete && b.complete ? solid : dashed, a, b);
    drawn.add(i).add(i + 1);
  }
  // A lone bucket (gaps on both sides) still shows, as a point of its own.
  points.forEach((p, i) => {
    if (p.value === null || drawn.has(i)) return;
    const target = p.complete ? solid : dashed;
    if (target.length) target.push([p.key, null]);
    target.push([p.key, p.value]);
  });
  const incomplete = points.filter((p) => !p.complete && p.value !== null).map((p): Pair => [p.key, p.value]);
  return { solid, dashed, incomplete };
}

/** Number of points over all series (decides the large-data settings). */
export const pointCount = (series: readonly ChartSeries[]) => series.reduce((n, s) => n + s.points.length, 0);

/**
 * One value summarising a range: sums for additive aggregators and count, the last value for
 * last, extremes for max/min, the mean otherwise. Null when there is no value.
 */
export function summarize(
  points: readonly SeriesPoint[],
  aggregator: string | null | undefined,
): number | null {
  const values = points.map((p) => p.value).filter((v): v is number => v !== null);
  if (!values.length) return null;
  switch (aggregator) {
    case 'sum':
    case 'delta':
    case 'count':
      return values.reduce((a, b) => a + b, 0);
    case 'last':
      return values[values.length - 1]!;
    case 'first':
      return values[0]!;
    case 'max':
      return values.reduce((a, b) => (b > a ? b : a));
    case 'min':
      return values.reduce((a, b) => (b < a ? b : a));
    default:
      return values.reduce((a, b) => a + b, 0) / values.length;
  }
}

/** Splits rows into chunks (spec §9: top data grouped in chunks of 10 points). */
export function chunk<T>(rows: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

export interface TableRow {
  key: number;
  values: Record<string, SeriesPoint | undefined>;
}

/** Series side by side by time, for the data table view (one row per bucket, oldest first). */
export function seriesTable(series: readonly ChartSeries[]): TableRow[] {
  const rows = new Map<number, TableRow>();
  for (const s of series) {
    for (const p of s.points) {
      let row = rows.get(p.key);
      if (!row) {
        row = { key: p.key, values: {} };
        rows.set(p.key, row);
      }
      row.values[s.name] = p;
    }
  }
  return [...rows.values()].sort((a, b) => a.key - b.key);
}
