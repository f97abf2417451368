/**
 * Hour rollups of the VictoriaMetrics wing: Kilowatch writes them itself when an hour of a series
 * closes (its first point of a later hour arrives) or a late point changes a closed hour, and reads
 * long ranges from them with MetricsQL, summed per bucket inside VictoriaMetrics. The rules are
 * those of samples.ts / the DuckDB rollups (interval-ending counters, `complete` from the gaps); see
 * docs/telemetry-store.md, "Rollups on VictoriaMetrics".
 *
 * Each field of an hour is a sample of `<name>_hour{thing,metric,f}` stamped at the hour's start plus
 * a generation (1, 2, …): VictoriaMetrics cannot replace a sample, so a recomputed hour is written
 * again one millisecond later and readers take the newest with `last_over_time(…[1h])`.
 */

import { HOUR } from '@kilowatch/contract/calendar';
import { floorTo, gapTolerance } from '../buckets.ts';
import { counterIncrement } from '../counter.ts';
import type { SamplePlan, Samples, SeriesFacts } from '../samples.ts';
import type { BucketColumns, BucketQuery } from '../store.ts';

/** One hour [H, H + 1 h) of a series, as samples.ts would compute it over the hour's samples. */
export interface HourRow {
  cnt: number;
  sum: number;
  min: number;
  max: number;
  last: number;
  /** Time of the hour's newest sample. */
  last_ts: number;
  /** Longest step into a sample of the hour, from the sample before it (0 when none had one). */
  max_gap: number;
  /** Counter increments of the hour's samples, each from the sample before it. */
  inc: number;
  /** The increment of the sample stamped exactly at H (it closes the hour before) and 1, or 0 and 0. */
  edge_inc: number;
  edge_cnt: number;
}

export const FIELDS = [
  'cnt',
  'sum',
  'min',
  'max',
  'last',
  'last_ts',
  'max_gap',
  'inc',
  'edge_inc',
  'edge_cnt',
] as const;
type Field = (typeof FIELDS)[number];

/** The rows of the hours in [lo, hi) that have samples, by hour start. */
export function hourRows(s: Samples, lo: number, hi: number): Map<number, HourRow> {
  const out = new Map<number, HourRow>();
  let pTs = s.prev ? s.prev.ts : null;
  let pV = s.prev ? s.prev.value : null;
  for (let j = 0; j < s.ts.length; j++) {
    const t = s.ts[j] as number;
    const v = s.values[j] as number;
    if (t >= lo && t < hi) {
      const h = floorTo(t, HOUR);
      let r = out.get(h);
      if (!r) {
        r = {
          cnt: 0,
          sum: 0,
          min: v,
          max: v,
          last: v,
          last_ts: t,
          max_gap: 0,
          inc: 0,
          edge_inc: 0,
          edge_cnt: 0,
        };
        out.set(h, r);
      }
      const inc = counterIncrement(pV, v);
      r.cnt++;
      r.sum += v;
      if (v < r.min) r.min = v;
      if (v > r.max) r.max = v;
      r.last = v;
      r.last_ts = t;
      if (pTs !== null) r.max_gap = Math.max(r.max_gap, t - pTs);
      r.inc += inc;
      if (t === h) {
        r.edge_inc = inc;
        r.edge_cnt = 1;
      }
    }
    pTs = t;
    pV = v;
  }
  return out;
}

/** Whether a query's buckets can be summed from hour rows: whole hours, an aggregator rows carry. */
export function rollupFits(query: BucketQuery, plan: SamplePlan): boolean {
  if (query.aggregator === 'first' || query.hours || plan.selected) return false;
  for (const s of plan.starts) if (s % HOUR !== 0) return false;
  return plan.starts.length > 1;
}

/** The fields a bucket query needs, by how the hours of a bucket combine. */
function fieldsFor(aggregator: BucketQuery['aggregator']): Record<'sum' | 'max' | 'min' | 'last', Field[]> {
  const sum: Field[] = ['cnt'];
  const max: Field[] = ['max_gap', 'last_ts'];
  const min: Field[] = [];
  const last: Field[] = [];
  if (aggregator === 'sum' || aggregator === 'avg') sum.push('sum');
  if (aggregator === 'delta') sum.push('inc');
  if (aggregator === 'max') max.push('max');
  if (aggregator === 'min') min.push('min');
  if (aggregator === 'last') last.push('last');
  return { sum, max, min, last };
}

const escapeRegex = (s: string): string => s.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
const quote = (s: string): string => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** A selector of the rollup series of these series (a superset by thing × metric; callers match exactly). */
export function rollupSelector(name: string, series: readonly { thingId: number; metric: string }[]): string {
  const things = [...new Set(series.map((s) => String(s.thingId)))].join('|');
  const metrics = [...new Set(series.map((s) => escapeRegex(s.metric)))].join('|');
  return `{__name__="${name}",thing=~"${things}",metric=~"${quote(metrics)}"`;
}

/** The MetricsQL of bucket (b − d, b] at time b: each field summed / maxed / … over its hours' newest rows. */
export function bucketExpr(sel: string, aggregator: BucketQuery['aggregator'], d: number): string {
  const parts: string[] = [];
  for (const [fn, fields] of Object.entries(fieldsFor(aggregator))) {
    if (fields.length === 0) continue;
    parts.push(`${fn}_over_time(last_over_time(${sel},f=~"${fields.join('|')}"}[1h])[${d}ms:1h])`);
  }
  return parts.join(' or ');
}

/** Buckets per range query, under VictoriaMetrics' -search.maxPointsPerTimeseries (30,000 by default). */
const MAX_RUN = 10_000;

/** Buckets [first, end) of one width: one range query whose step is that width. */
export interface BucketRun {
  first: number;
  end: number;
  width: number;
}

/**
 * The bucket starts cut into runs of equal widths: days of one run per DST change (23 and 25 hours
 * are runs of their own), a run per month length; fixed widths are one run (of at most MAX_RUN).
 * @example bucketRuns([0, 24, 48, 71, 95]) // [{first: 0, end: 2, width: 24}, {first: 2, end: 3, width: 23}, {first: 3, end: 4, width: 24}]
 */
export function bucketRuns(starts: ArrayLike<number>): BucketRun[] {
  const out: BucketRun[] = [];
  for (let i = 0; i + 1 < starts.length; i++) {
    const width = (starts[i + 1] as number) - (starts[i] as number);
    const run = out[out.length - 1];
    if (run && run.width === width && run.end - run.first < MAX_RUN) run.end = i + 1;
    else out.push({ first: i, end: i + 1, width });
  }
  return out;
}

/** The MetricsQL of the edge fields of the hour starting at the query time. */
export function edgeExpr(sel: string): string {
  return `last_over_time(${sel},f=~"edge_inc|edge_cnt"}[1h] offset -1h)`;
}

/** One bucket's combined hours (fields absent from the answer are 0 / NaN). */
export type BucketFields = Partial<Record<Field, number>>;

export interface RollupInput {
  /** Per series k, per bucket i: the fields VictoriaMetrics summed (k * n + i). */
  buckets: (BucketFields | undefined)[];
  /** Per series k, per edge c (0..n): the edge fields of the hour starting at starts[c] (k * (n + 1) + c). */
  edges: (BucketFields | undefined)[];
  /** Per series k: its open hour's start and row (not written as a rollup yet), from raw samples. */
  open: ({ hour: number; row: HourRow | undefined } | undefined)[];
  facts: (SeriesFacts | undefined)[];
}

/** Bucket columns from rollup sums, with each series' open hour added (as columnsFromSamples would answer). */
export function columnsFromRollups(
  query: BucketQuery,
  plan: SamplePlan,
  input: RollupInput,
  now: number,
): BucketColumns {
  const { starts } = plan;
  const n = starts.length - 1;
  const { aggregator } = query;
  const delta = aggregator === 'delta';
  const size = query.series.length * n;
  const values = new Float64Array(size).fill(aggregator === 'count' ? 0 : Number.NaN);
  const counts = new Float64Array(size);
  const complete = new Uint8Array(size);
  for (let k = 0; k < query.series.length; k++) {
    const facts = input.facts[k];
    if (!facts) continue;
    const open = input.open[k];
    const edge = (c: number): { inc: number; cnt: number } => {
      const e = input.edges[k * (n + 1) + c];
      if (e?.edge_cnt !== undefined) return { inc: e.edge_inc ?? 0, cnt: e.edge_cnt };
      if (open?.row && open.hour === starts[c]) return { inc: open.row.edge_inc, cnt: open.row.edge_cnt };
      return { inc: 0, cnt: 0 };
    };
    const tolerance = gapTolerance(facts.intervalMs);
    for (let i = 0; i < n; i++) {
      const a = starts[i] as number;
      const b = starts[i + 1] as number;
      const f: BucketFields = { ...input.buckets[k * n + i] };
      const row = open?.row;
      // The open hour joins its bucket unless a commit closed it while this read ran (then its
      // rollup is in the sums already: their newest sample is from that hour).
      if (row && open.hour >= a && open.hour < b && !((f.last_ts ?? Number.NEGATIVE_INFINITY) >= open.hour)) {
        const had = (f.cnt ?? 0) > 0;
        f.cnt = (f.cnt ?? 0) + row.cnt;
        f.sum = (f.sum ?? 0) + row.sum;
        f.inc = (f.inc ?? 0) + row.inc;
        f.min = had && f.min !== undefined ? Math.min(f.min, row.min) : row.min;
        f.max = had && f.max !== undefined ? Math.max(f.max, row.max) : row.max;
        f.last = row.last;
        f.last_ts = row.last_ts;
        f.max_gap = Math.max(f.max_gap ?? 0, row.max_gap);
      }
      let c = f.cnt ?? 0;
      let inc = f.inc ?? 0;
      if (delta) {
        const ea = edge(i);
        const eb = edge(i + 1);
        c += eb.cnt - ea.cnt;
        inc += eb.inc - ea.inc;
      }
      if (c === 0) continue;
      const at = k * n + i;
      const cnt = f.cnt ?? 0;
      values[at] =
        aggregator === 'count'
          ? c
          : aggregator === 'avg'
            ? (f.sum ?? 0) / c
            : delta
              ? inc
              : ((f[aggregator as Field] as number | undefined) ?? Number.NaN);
      counts[at] = c;
      complete[at] =
        b <= now &&
        facts.firstTs !== null &&
        facts.firstTs <= a &&
        cnt > 0 &&
        (f.max_gap ?? 0) <= tolerance &&
        b - (f.last_ts ?? 0) <= tolerance
          ? 1
          : 0;
    }
  }
  return { series: query.series, starts: starts.slice(), values, counts, complete, resolution: 'hour' };
}
