import { type ChartSeries, isAdditive, type SeriesPoint, summarize } from './series.ts';

/** More series than this on one chart become the largest few plus one "others" series. */
export const MAX_SERIES = 10;

/**
 * Keeps a chart readable: with more than `max` series, each metric keeps its largest series (by
 * the magnitude of its summary over the range: total for additive metrics, mean otherwise) and
 * folds the rest into one "others" series — their sum for additive metrics (so the total still
 * adds up), their mean otherwise. Totals and comparison series always stay. Fewer series pass
 * through unchanged.
 */
export function limitSeries(
  series: readonly ChartSeries[],
  { max = MAX_SERIES, othersName }: { max?: number; othersName: (count: number) => string },
): ChartSeries[] {
  if (series.length <= max) return [...series];
  const fixed = series.filter((s) => s.total || s.compare);
  const groups = new Map<string, ChartSeries[]>();
  for (const s of series) {
    if (s.total || s.compare) continue;
    const key = s.metric ?? '';
    const list = groups.get(key) ?? [];
    list.push(s);
    groups.set(key, list);
  }
  const quota = Math.max(2, Math.floor((max - fixed.length) / Math.max(1, groups.size)));
  const kept = new Set<ChartSeries>(fixed);
  const others: ChartSeries[] = [];
  for (const [metric, list] of groups) {
    if (list.length <= quota) {
      for (const s of list) kept.add(s);
      continue;
    }
    const ranked = [...list].sort((a, b) => magnitude(b) - magnitude(a) || list.indexOf(a) - list.indexOf(b));
    const top = ranked.slice(0, quota - 1);
    const rest = ranked.slice(quota - 1);
    for (const s of top) kept.add(s);
    const first = rest[0]!;
    const name = othersName(rest.length);
    others.push({
      name: groups.size > 1 && metric ? `${metric} · ${name}` : name,
      unit: first.unit,
      metric: first.metric,
      aggregator: first.aggregator,
      ...(first.counter ? { counter: true } : {}),
      points: foldPoints(rest, isAdditive(first.aggregator)),
    });
  }
  // Original order for what stays, the "others" series last.
  return [...series.filter((s) => kept.has(s)), ...others];
}

const magnitude = (s: ChartSeries) => Math.abs(summarize(s.points, s.aggregator) ?? 0);

/** One series from several: sum or mean per bucket; incomplete where any part is. */
function foldPoints(list: readonly ChartSeries[], additive: boolean): SeriesPoint[] {
  const byKey = new Map<number, { sum: number; n: number; seen: number; missing: string[] }>();
  for (const s of list) {
    for (const p of s.points) {
      const acc = byKey.get(p.key) ?? { sum: 0, n: 0, seen: 0, missing: [] };
      acc.seen += 1;
      if (p.value !== null) {
        acc.sum += p.value;
        acc.n += 1;
      }
      if (!p.complete || p.value === null) acc.missing.push(...(p.missing ?? [s.name]));
      byKey.set(p.key, acc);
    }
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => a - b)
    .map(([key, acc]) => {
      const complete = acc.missing.length === 0 && acc.seen === list.length;
      const point: SeriesPoint = {
        key,
        value: acc.n === 0 ? null : additive ? acc.sum : acc.sum / acc.n,
        complete,
      };
      if (!complete) {
        const absent = list.filter((s) => !s.points.some((p) => p.key === key)).map((s) => s.name);
        point.missing = [...new Set([...acc.missing, ...absent])];
      }
      return point;
    });
}
