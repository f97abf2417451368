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
  minuteOf,
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

const stripSegments = (stretches: readonly DayStretch[]): StripSegment[] =>
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

const TIME_OF_DAY = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;

/** Why the bands being edited do not tile the day, naming the bands and times involved. */
export type SpanProblem =
  | { kind: 'overlap'; first: BandSpan; second: BandSpan; from: string; to: string }
  | { kind: 'gap'; from: string; to: string }
  | { kind: 'empty'; span: BandSpan };

/**
 * The first problem of a day's bands as the editor explains it (null when they tile 00:00–24:00, or
 * while a row is still being typed): two bands that overlap and the stretch they share, a stretch
 * no band covers, or a band that ends before it starts.
 */
export function spanProblem(spans: readonly (BandSpan | undefined)[]): SpanProblem | null {
  const typed = spans.filter(
    (s): s is BandSpan => !!s && !!s.band && TIME_OF_DAY.test(s.from ?? '') && TIME_OF_DAY.test(s.to ?? ''),
  );
  if (typed.length < spans.length) return null;
  const sorted = [...typed].sort((a, b) => minuteOf(a.from) - minuteOf(b.from));
  let cursor = 0;
  let reaching: BandSpan | null = null;
  for (const s of sorted) {
    const from = minuteOf(s.from);
    const to = minuteOf(s.to);
    if (to <= from) return { kind: 'empty', span: s };
    if (reaching && from < cursor)
      return {
        kind: 'overlap',
        first: reaching,
        second: s,
        from: s.from,
        to: timeOf(Math.min(cursor, to)),
      };
    if (from > cursor) return { kind: 'gap', from: timeOf(cursor), to: s.from };
    cursor = to;
    reaching = s;
  }
  if (cursor < MINUTES_PER_DAY) return { kind: 'gap', from: timeOf(cursor), to: '24:00' };
  return null;
}

/** A span problem in the user's words: `峰 08:00–12:00 与 平 10:00–14:00 在 10:00–12:00 重叠`. */
export function spanProblemText(
  problem: SpanProblem,
  t: (key: string, params?: Record<string, unknown>) => string,
): string {
  const span = (s: BandSpan) => `${t(`tariffs.band.${s.band}`)} ${s.from}–${s.to}`;
  if (problem.kind === 'overlap')
    return t('tariffs.spanProblem.overlap', {
      first: span(problem.first),
      second: span(problem.second),
      from: problem.from,
      to: problem.to,
    });
  if (problem.kind === 'gap') return t('tariffs.spanProblem.gap', { from: problem.from, to: problem.to });
  return t('tariffs.spanProblem.empty', { span: span(problem.span) });
}
