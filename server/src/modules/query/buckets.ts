import type { QueryAggregator } from '@kilowatch/contract';
import type { BucketColumns } from '../../telemetry/index.ts';

/** A bucket of a series as the query answers it. */
export interface Slot {
  start: number;
  value: number | null;
  count: number;
  complete: boolean;
}

/** Counts of samples weigh averages; the other aggregators combine on their own. */
function combine(aggregator: QueryAggregator, slots: readonly Slot[]): number | null {
  const present = slots.filter((s) => s.value !== null && (s.count > 0 || aggregator === 'count'));
  if (present.length === 0) return aggregator === 'count' ? 0 : null;
  const values = present.map((s) => s.value as number);
  switch (aggregator) {
    case 'avg': {
      const n = present.reduce((a, s) => a + s.count, 0);
      return n > 0 ? present.reduce((a, s) => a + (s.value as number) * s.count, 0) / n : null;
    }
    case 'min':
      return Math.min(...values);
    case 'max':
      return Math.max(...values);
    case 'first':
      return values[0] ?? null;
    case 'last':
      return values[values.length - 1] ?? null;
    default:
      // sum, count, delta: consumption and counts add up.
      return values.reduce((a, v) => a + v, 0);
  }
}

/**
 * Groups every `n` consecutive buckets of one series into one (e.g. quarters from month buckets),
 * starting with the first; the aggregator decides how values combine (avg weighted by samples).
 */
export function mergeRuns(buckets: readonly Slot[], n: number, aggregator: QueryAggregator): Slot[] {
  if (n <= 1) return [...buckets];
  const out: Slot[] = [];
  for (let i = 0; i < buckets.length; i += n) {
    const run = buckets.slice(i, i + n);
    out.push({
      start: (run[0] as Slot).start,
      value: combine(aggregator, run),
      count: run.reduce((a, s) => a + s.count, 0),
      complete: run.every((s) => s.complete),
    });
  }
  return out;
}

/**
 * One series from several things' series on the same grid: `sum` adds the values present (a
 * region's total power or consumption), `avg` averages them (a region's mean temperature). A
 * bucket is complete only when every thing's bucket is.
 */
export function combineSeries(series: readonly (readonly Slot[])[], mode: 'sum' | 'avg'): Slot[] {
  const first = series[0];
  if (!first) return [];
  return first.map((slot, i) => {
    const at = series.map((s) => s[i] as Slot);
    const present = at.filter((s) => s.value !== null);
    const total = present.reduce((a, s) => a + (s.value as number), 0);
    return {
      start: slot.start,
      value: present.length === 0 ? null : mode === 'sum' ? total : total / present.length,
      count: at.reduce((a, s) => a + s.count, 0),
      complete: at.every((s) => s.complete),
    };
  });
}

/** The buckets of series `k` of a column answer, in bucket order. */
export function slotsOf(columns: BucketColumns, k: number): Slot[] {
  const n = Math.max(0, columns.starts.length - 1);
  const out: Slot[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const value = columns.values[k * n + i] as number;
    out[i] = {
      start: columns.starts[i] as number,
      value: Number.isNaN(value) ? null : value,
      count: columns.counts[k * n + i] as number,
      complete: columns.complete[k * n + i] === 1,
    };
  }
  return out;
}

/** Names of the things whose bucket `index` is incomplete (or absent) on a shared grid. */
export function missingThings(
  series: readonly (readonly Slot[])[],
  index: number,
  names: readonly string[],
): string[] {
  const out: string[] = [];
  series.forEach((slots, i) => {
    if (!slots[index]?.complete) out.push(names[i] ?? `#${i}`);
  });
  return out;
}
