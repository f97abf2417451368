import {
  CIRCLE_METRIC_NAMES,
  type Period,
  type PlantCalendar,
  type QueryComparison,
  STATISTICS_DECIMALS,
  type StatisticsResult,
  TOP_CHUNK,
} from '@kilowatch/contract';

/**
 * The statistics screen's arithmetic on the plant calendar (docs/statistics.md), pure so it is
 * tested without a browser.
 */

/** Spec §4: the analysis period defaults to day. */
export const DEFAULT_PERIOD: Period = 'day';

/**
 * The range choices of each period, in order: the one before last, the last, the current one,
 * a chosen date. Spec §4's default "range index 2" is the current period.
 */
export const RANGE_PRESETS = ['beforeLast', 'last', 'current', 'date'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
const DEFAULT_RANGE_INDEX = 2;
export const DEFAULT_RANGE: RangePreset = RANGE_PRESETS[DEFAULT_RANGE_INDEX];

/** A time inside the period a preset names (`chosen` for a date). */
export function presetTime(
  preset: RangePreset,
  period: Period,
  now: number,
  calendar: PlantCalendar,
  chosen: number | null,
): number {
  if (preset === 'date') return chosen ?? now;
  const back = preset === 'current' ? 0 : preset === 'last' ? -1 : -2;
  const start = calendar.periodRange(period, now).start;
  if (back === 0) return now;
  return period === 'day'
    ? calendar.shift(start, back, 'day')
    : calendar.shift(start, period === 'month' ? back : back * 12, 'month');
}

/** Comparisons the screen offers: none, the same period a year before, the period before. */
export const COMPARE_OPTIONS = ['none', 'yearOnYear', 'previous'] as const;
export type CompareOption = (typeof COMPARE_OPTIONS)[number];

/** The query's `compare` for an option (the server moves the range on the plant calendar). */
export function compareOf(option: CompareOption, period: Period): QueryComparison | undefined {
  if (option === 'yearOnYear') return { shift: { amount: -1, unit: 'year' } };
  if (option === 'previous') return { shift: { amount: -1, unit: period } };
  return undefined;
}

/** Numbers as the console shows them (spec §9: 2 decimals); a dash for none. */
export const format2 = (value: number | null | undefined): string =>
  value == null
    ? '—'
    : value.toLocaleString('en-US', {
        minimumFractionDigits: STATISTICS_DECIMALS,
        maximumFractionDigits: STATISTICS_DECIMALS,
      });

/** Status metrics are drawn in the circle, never as series (spec §9). */
export const isCircleMetric = (name: string): boolean =>
  (CIRCLE_METRIC_NAMES as readonly string[]).includes(name);

/** Whether an answer has anything to draw. */
export const hasData = (result: StatisticsResult | undefined): boolean =>
  !!result && result.keys.length > 0 && result.series.some((s) => s.values.some((v) => v !== null));

export interface TopRow {
  rank: number;
  key: string;
  name: string;
  total: number | null;
  /** Part of the sum of totals, 0–100; null when the totals do not add up (averages). */
  share: number | null;
}

/** Series by their total, largest first, with rank and share of the SUM. */
export function topRows(result: StatisticsResult): TopRow[] {
  const sum = result.total?.total ?? null;
  return [...result.series]
    .sort((a, b) => (b.total ?? Number.NEGATIVE_INFINITY) - (a.total ?? Number.NEGATIVE_INFINITY))
    .map((s, i) => ({
      rank: i + 1,
      key: s.key,
      name: s.name,
      total: s.total,
      share: sum && s.total !== null ? (s.total / sum) * 100 : null,
    }));
}

/** A list in chunks of 10 (spec §9: top data is grouped in chunks of 10). */
export function chunks<T>(list: readonly T[], size = TOP_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
