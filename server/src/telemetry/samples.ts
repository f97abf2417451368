/**
 * `buckets()` and chart downsampling computed from raw samples, for a wing that reads samples
 * rather than rollups it maintains (the VictoriaMetrics wing). The rules are those of the DuckDB
 * rollups (docs/telemetry-store.md): gauges per sample over [a, b), a counter's `delta` over the
 * readings in (a, b] (interval-ending), `complete` from the gaps; the conformance suite holds both
 * wings to the same answers.
 */

import type { PlantCalendar } from '@kilowatch/contract/calendar';
import { HOUR } from '@kilowatch/contract/calendar';
import { bucketStart, bucketWidthFor, floorTo, gapTolerance, gridOf, MAX_BUCKETS } from './buckets.ts';
import { counterIncrement } from './counter.ts';
import type { BucketColumns, BucketQuery, Point, SeriesKey } from './store.ts';

/** A series' samples, oldest first, one per timestamp, and the last sample before them (if any). */
export interface Samples {
  ts: readonly number[];
  values: readonly number[];
  prev: { ts: number; value: number } | null;
}

/** What the store knows of a series beside its samples. */
export interface SeriesFacts {
  firstTs: number | null;
  intervalMs: number | null;
}

/** The buckets' edges and the stored range a query needs: samples in [from, to] and the one before `from`. */
export interface SamplePlan {
  starts: Float64Array;
  /** Oldest sample needed (the first bucket's start). */
  from: number;
  /** Newest sample needed, inclusive (the last bucket's end: it closes a counter's last bucket). */
  to: number;
  /** 1 for each bucket whose samples are asked for (all without `hours`). */
  selected: Uint8Array | null;
}

/**
 * Checks a query like the DuckDB reader does and lays out its buckets; null when the range is
 * empty (then the answer has no buckets).
 */
export function planBuckets(cal: PlantCalendar, query: BucketQuery): SamplePlan | null {
  const { start, end } = query;
  if (!Number.isFinite(start) || !Number.isFinite(end)) throw new RangeError('start and end must be numbers');
  if (!(end > start)) return null;
  const g = gridOf(cal, query.bucket, start, end);
  if (g.n * Math.max(1, query.series.length) > MAX_BUCKETS) {
    throw new RangeError(`the query asks for ${g.n * query.series.length} buckets, more than ${MAX_BUCKETS}`);
  }
  if (query.hours && !(g.kind === 'fixed' && g.width <= HOUR && query.hours.every((h) => h % HOUR === 0))) {
    throw new RangeError('hours go with fixed buckets of at most an hour, each hour a multiple of an hour');
  }
  const starts = new Float64Array(g.n + 1);
  for (let i = 0; i <= g.n; i++) starts[i] = bucketStart(cal, g, i);
  let selected: Uint8Array | null = null;
  if (query.hours) {
    const set = new Set(query.hours);
    selected = new Uint8Array(g.n);
    for (let i = 0; i < g.n; i++) selected[i] = set.has(floorTo(starts[i] as number, HOUR)) ? 1 : 0;
  }
  return { starts, from: starts[0] as number, to: starts[g.n] as number, selected };
}

/** An answer with no buckets (an empty range). */
export function emptyColumns(series: readonly SeriesKey[], resolution: string): BucketColumns {
  return {
    series,
    starts: new Float64Array(0),
    values: new Float64Array(0),
    counts: new Float64Array(0),
    complete: new Uint8Array(0),
    resolution,
  };
}

/**
 * The buckets of a query from each series' samples (`data(k)` for series k: its samples covering
 * [plan.from, plan.to] and its facts, undefined for a series the store does not know).
 */
export function columnsFromSamples(
  query: BucketQuery,
  plan: SamplePlan,
  data: (k: number) => { samples: Samples; facts: SeriesFacts } | undefined,
  now: number,
  resolution = 'raw',
): BucketColumns {
  const { starts, selected } = plan;
  const n = starts.length - 1;
  const { aggregator } = query;
  const delta = aggregator === 'delta';
  const size = query.series.length * n;
  const values = new Float64Array(size).fill(aggregator === 'count' ? 0 : Number.NaN);
  const counts = new Float64Array(size);
  const complete = new Uint8Array(size);
  // Per bucket of one series: samples in [a, b), their aggregate, newest time, longest step into one.
  const cnt = new Float64Array(n);
  const agg = new Float64Array(n);
  const lastTs = new Float64Array(n);
  const maxGap = new Float64Array(n);
  // A counter's readings in (a, b]: how many, and the sum of their increments.
  const closing = new Float64Array(n);
  const inc = new Float64Array(n);
  const first = starts[0] as number;
  const last = starts[n] as number;
  for (let k = 0; k < query.series.length; k++) {
    const d = data(k);
    if (!d) continue;
    cnt.fill(0);
    agg.fill(Number.NaN);
    lastTs.fill(0);
    maxGap.fill(0);
    closing.fill(0);
    inc.fill(0);
    const { ts, values: vs, prev } = d.samples;
    let pTs = prev ? prev.ts : null;
    let pV = prev ? prev.value : null;
    let b = 0;
    for (let j = 0; j < ts.length; j++) {
      const t = ts[j] as number;
      const v = vs[j] as number;
      while (b < n && t >= (starts[b + 1] as number)) b++;
      if (delta) {
        if (t > first && t <= last) {
          const c = t === (starts[b] as number) ? b - 1 : b;
          closing[c] = (closing[c] as number) + 1;
          inc[c] = (inc[c] as number) + counterIncrement(pV, v);
        }
      }
      if (t >= first && t < last) {
        const x = agg[b] as number;
        const c = cnt[b] as number;
        switch (aggregator) {
          case 'avg':
          case 'sum':
            agg[b] = c === 0 ? v : x + v;
            break;
          case 'min':
            agg[b] = c === 0 || v < x ? v : x;
            break;
          case 'max':
            agg[b] = c === 0 || v > x ? v : x;
            break;
          case 'first':
            if (c === 0) agg[b] = v;
            break;
          case 'last':
            agg[b] = v;
            break;
          default:
            break;
        }
        cnt[b] = c + 1;
        lastTs[b] = t;
        if (pTs !== null) maxGap[b] = Math.max(maxGap[b] as number, t - pTs);
      }
      pTs = t;
      pV = v;
    }
    const tolerance = gapTolerance(d.facts.intervalMs);
    const firstTs = d.facts.firstTs;
    for (let i = 0; i < n; i++) {
      if (selected && selected[i] === 0) continue;
      const c = delta ? (closing[i] as number) : (cnt[i] as number);
      if (c === 0) continue;
      const at = k * n + i;
      const be = starts[i + 1] as number;
      values[at] =
        aggregator === 'count'
          ? c
          : aggregator === 'avg'
            ? (agg[i] as number) / c
            : delta
              ? (inc[i] as number)
              : (agg[i] as number);
      counts[at] = c;
      complete[at] =
        be <= now &&
        firstTs !== null &&
        firstTs <= (starts[i] as number) &&
        (maxGap[i] as number) <= tolerance &&
        be - (lastTs[i] as number) <= tolerance
          ? 1
          : 0;
    }
  }
  return { series: query.series, starts: starts.slice(), values, counts, complete, resolution };
}

/**
 * About `maxPoints` points of a chart from a series' samples over [start, end): the samples when
 * few enough, else the minimum and maximum of each bucket of the smallest `BUCKET_WIDTHS` width
 * giving ≤ maxPoints / 2 buckets, at their own times (the DuckDB wing answers the same from rollups).
 */
export function downsampleSamples(
  cal: PlantCalendar,
  series: SeriesKey,
  ts: readonly number[],
  values: readonly number[],
  start: number,
  end: number,
  maxPoints: number,
): Point[] {
  const at = (i: number): Point => ({
    thingId: series.thingId,
    metric: series.metric,
    ts: ts[i] as number,
    value: values[i] as number,
  });
  if (ts.length <= maxPoints) return ts.map((_, i) => at(i));
  const need = (end - start) / Math.max(1, Math.floor(maxPoints / 2));
  const g = gridOf(cal, { widthMs: bucketWidthFor(need) }, start, end);
  const out: Point[] = [];
  let b = 0;
  let next = bucketStart(cal, g, 1);
  let lo = -1;
  let hi = -1;
  const flush = () => {
    if (lo < 0) return;
    if (lo === hi) out.push(at(lo));
    else if (lo < hi) out.push(at(lo), at(hi));
    else out.push(at(hi), at(lo));
  };
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i] as number;
    if (t >= next) {
      flush();
      lo = -1;
      hi = -1;
      while (b < g.n && t >= next) next = bucketStart(cal, g, ++b + 1);
    }
    const v = values[i] as number;
    if (lo < 0 || v < (values[lo] as number)) lo = i;
    if (hi < 0 || v > (values[hi] as number)) hi = i;
  }
  flush();
  return out;
}
