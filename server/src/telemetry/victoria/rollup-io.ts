/**
 * The VictoriaMetrics side of the hour rollups (rollups.ts): writing recomputed hours with their
 * generation, and reading a query's buckets summed inside VictoriaMetrics.
 */

import { HOUR } from '@kilowatch/contract/calendar';
import { floorTo } from '../buckets.ts';
import type { SamplePlan, Samples, SeriesFacts } from '../samples.ts';
import type { BucketColumns, BucketQuery, SeriesKey } from '../store.ts';
import { type ExportedSeries, selector, type VictoriaClient } from './http.ts';
import {
  type BucketFields,
  type BucketRun,
  bucketExpr,
  bucketRuns,
  columnsFromRollups,
  edgeExpr,
  FIELDS,
  type HourRow,
  hourRows,
  rollupSelector,
} from './rollups.ts';

/** Range queries of a rollup read in flight at once. */
const ROLLUP_QUERIES = 8;

/** A series as the store keeps it. */
export interface RollupSeries extends SeriesKey, SeriesFacts {
  latestTs: number | null;
  selector: string;
}

export interface RollupContext<S extends RollupSeries> {
  client: VictoriaClient;
  /** The rollups' metric name (`<name>_hour`). */
  name: string;
  /** Samples in [from, to] of each series and the one before `from`. */
  samplesWithPrev(states: readonly S[], from: number, to: number): Promise<Map<S, Samples>>;
}

/**
 * Buckets summed inside VictoriaMetrics from the hour rollups (one range query per run of buckets of
 * one width, with the edge rows at each bucket end), each series' open hour computed from its raw samples;
 * `stateOf(k)` is query series k when the store has samples of it.
 */
export async function readRollups<S extends RollupSeries>(
  ctx: RollupContext<S>,
  query: BucketQuery,
  plan: SamplePlan,
  states: readonly S[],
  stateOf: (k: number) => S | undefined,
  now: number,
): Promise<BucketColumns> {
  const { starts } = plan;
  const n = starts.length - 1;
  const keys = query.series;
  const at = new Map<string, number[]>();
  keys.forEach((s, k) => {
    const id = `${s.thingId}\u0000${s.metric}`;
    at.set(id, [...(at.get(id) ?? []), k]);
  });
  const buckets: (BucketFields | undefined)[] = new Array(keys.length * n);
  const edges: (BucketFields | undefined)[] = new Array(keys.length * (n + 1));
  const sel = rollupSelector(ctx.name, states);
  /** A field VictoriaMetrics answered for bucket end / edge c (0..n). */
  const put = (labels: Record<string, string>, c: number, value: number) => {
    const f = labels.f as string;
    const edge = f.startsWith('edge_');
    for (const k of at.get(`${labels.thing}\u0000${labels.metric}`) ?? []) {
      const arr = edge ? edges : buckets;
      const i = edge ? k * (n + 1) + c : k * n + c - 1;
      const fields = arr[i] ?? {};
      fields[f as keyof BucketFields] = value;
      arr[i] = fields;
    }
  };
  // One range query per run of equal widths (all of a month's days but a DST day), evaluated at
  // each bucket's end with the edge rows there; the edge at the first start is an instant query.
  const ask = async ({ first, end, width }: BucketRun) => {
    const from = starts[first + 1] as number;
    const expr = `${bucketExpr(sel, query.aggregator, width)} or ${edgeExpr(sel)}`;
    for (const r of await ctx.client.queryRange(expr, from, starts[end] as number, width)) {
      for (const [t, value] of r.points) {
        const c = first + 1 + Math.round((t - from) / width);
        if (starts[c] !== t) throw new Error(`VictoriaMetrics answered a point at ${t}, not at a bucket end`);
        put(r.labels, c, value);
      }
    }
  };
  const runs = bucketRuns(starts);
  let next = 0;
  const worker = async () => {
    while (next < runs.length) await ask(runs[next++] as BucketRun);
  };
  const opens = new Map<number, S[]>();
  for (const st of states) {
    const hour = floorTo(st.latestTs as number, HOUR);
    if (hour >= plan.from && hour <= plan.to) opens.set(hour, [...(opens.get(hour) ?? []), st]);
  }
  const openRows = new Map<S, { hour: number; row: HourRow | undefined }>();
  await Promise.all([
    (async () => {
      for (const r of await ctx.client.query(edgeExpr(sel), starts[0] as number)) put(r.labels, 0, r.value);
    })(),
    ...Array.from({ length: Math.min(ROLLUP_QUERIES, runs.length) }, worker),
    ...[...opens].map(async ([hour, group]) => {
      const samples = await ctx.samplesWithPrev(group, hour, hour + HOUR - 1);
      for (const st of group) {
        const s = samples.get(st);
        openRows.set(st, { hour, row: s && hourRows(s, hour, hour + HOUR).get(hour) });
      }
    }),
  ]);
  return columnsFromRollups(
    query,
    plan,
    {
      buckets,
      edges,
      open: keys.map((_, k) => {
        const st = stateOf(k);
        return st && openRows.get(st);
      }),
      facts: keys.map((_, k) => stateOf(k)),
    },
    now,
  );
}

/**
 * Recomputes the hours [lo, hi) of each range's series from their raw samples and writes them, an
 * hour written before with the next generation; imported and flushed before this resolves.
 */
export async function writeRollups<S extends RollupSeries>(
  ctx: RollupContext<S>,
  ranges: Map<number, { states: S[]; hi: number }>,
): Promise<void> {
  const out: ExportedSeries[] = [];
  for (const [lo, { states, hi }] of ranges) {
    const [samples, written] = await Promise.all([
      ctx.samplesWithPrev(states, lo, hi - 1),
      ctx.client.exportSeries(
        states.map((st) => selector(rollupLabels(ctx.name, st, 'cnt'))),
        lo,
        hi - 1,
      ),
    ]);
    const generation = new Map<string, number>();
    for (const w of written) {
      for (const t of w.ts) {
        const id = `${w.labels.thing}\u0000${w.labels.metric}\u0000${floorTo(t, HOUR)}`;
        generation.set(id, Math.max(generation.get(id) ?? 0, t - floorTo(t, HOUR)));
      }
    }
    for (const st of states) {
      const s = samples.get(st);
      if (!s) continue;
      const rows = [...hourRows(s, lo, hi)];
      if (rows.length === 0) continue;
      const ts = rows.map(([h]) => {
        const g = (generation.get(`${st.thingId}\u0000${st.metric}\u0000${h}`) ?? 0) + 1;
        if (g >= HOUR) throw new Error(`hour ${h} of ${st.selector} was rewritten too often`);
        return h + g;
      });
      for (const f of FIELDS)
        out.push({
          labels: rollupLabels(ctx.name, st, f),
          ts,
          values: rows.map(([, r]) => r[f]),
        });
    }
  }
  if (out.length === 0) return;
  await ctx.client.importSeries(out);
  await ctx.client.flush();
}

const rollupLabels = (name: string, st: SeriesKey, f: string): Record<string, string> => ({
  __name__: name,
  thing: String(st.thingId),
  metric: st.metric,
  f,
});
