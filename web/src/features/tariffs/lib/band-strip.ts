import {
  type BandKind,
  type BandPrices,
  type BandSpan,
  bandsOfDay,
  type DayRules,
  type DayStretch,
  type DayType,
  dayPlan,
  MINUTES_PER_DAY,
  type TariffIssue,
  type TariffVersionBody,
  timeOf,
} from '@kilowatch/contract';

/** Band colours, dearest warmest; text on each meets 4.5:1. */
export const BAND_COLORS: Record<BandKind, { fill: string; text: string }> = {
  tip: { fill: '#cf1322', text: '#ffffff' },
  peak: { fill: '#fa8c16', text: '#000000' },
  flat: { fill: '#fadb14', text: '#000000' },
  valley: { fill: '#1677ff', text: '#ffffff' },
  deepValley: { fill: '#10239e', text: '#ffffff' },
};

/** One block of the 24-hour strip: where it sits (percent of the day) and what it says. */
export interface StripSegment {
  band: BandKind;
  left: number;
  width: number;
  from: string;
  to: string;
  price: number | null;
}

export const stripSegments = (stretches: readonly DayStretch[]): StripSegment[] =>
  stretches.map((s) => ({
    band: s.band,
    left: (s.from / MINUTES_PER_DAY) * 100,
    width: ((s.to - s.from) / MINUTES_PER_DAY) * 100,
    from: timeOf(s.from),
    to: timeOf(s.to),
    price: s.price,
  }));

/**
 * The strip of a chosen local date under a tariff: which version and season hold it, its day type
 * and its segments; null before the first version.
 */
export function dayStrip<V extends TariffVersionBody>(
  rules: DayRules,
  versions: readonly V[],
  date: string,
): { version: V; season: string; dayType: DayType; segments: StripSegment[] } | null {
  const plan = dayPlan(rules, versions, date);
  if (!plan) return null;
  return {
    version: plan.version,
    season: plan.season.name,
    dayType: plan.dayType,
    segments: stripSegments(plan.stretches),
  };
}

/** Hours a band holds in the strip (for the legend). */
export const bandHours = (segments: readonly StripSegment[]): Partial<Record<BandKind, number>> => {
  const out: Partial<Record<BandKind, number>> = {};
  for (const s of segments) out[s.band] = (out[s.band] ?? 0) + (s.width / 100) * 24;
  return out;
};

/** The strip of spans being edited (adjacent spans of one band merged), or null while they do not tile the day. */
export function spanSegments(spans: readonly BandSpan[], prices: BandPrices): StripSegment[] | null {
  const day = bandsOfDay(spans);
  if ('problem' in day) return null;
  const stretches: DayStretch[] = [];
  day.minutes.forEach((band, minute) => {
    const last = stretches.at(-1);
    if (band === null) return;
    if (last && last.band === band) last.to = minute + 1;
    else stretches.push({ band, from: minute, to: minute + 1, price: prices[band] ?? null });
  });
  return stripSegments(stretches);
}

/** An issue of `checkVersion` in the user's words. */
export function issueText(
  issue: TariffIssue,
  t: (key: string, params?: Record<string, unknown>) => string,
): string {
  const { code, ...params } = issue;
  const named: Record<string, unknown> = { ...params };
  if ('dayType' in issue) named.dayType = t(`tariffs.dayType.${issue.dayType}`);
  if ('band' in issue) named.band = t(`tariffs.band.${issue.band}`);
  return t(`tariffs.issue.${code}`, named);
}
