import { HOUR } from '@kilowatch/contract/calendar';
import { sortAndDedupe } from '../batch-points.ts';
import { floorTo, nextInterval } from '../buckets.ts';
import type { Point } from '../store.ts';
import type { ExportedSeries, VictoriaClient } from './http.ts';
import { type RollupContext, writeRollups } from './rollup-io.ts';
import type { SeriesBook, SeriesState } from './series.ts';

/** The points of one series in a batch, sorted by time, one per timestamp (the last written). */
interface Group {
  st: SeriesState;
  ts: number[];
  values: number[];
  /** Times of points VictoriaMetrics has with their value already (not imported again). */
  stored?: Set<number>;
}

/**
 * Far enough in the future for "every sample": VictoriaMetrics answers an export ending after
 * 2262-04-11 (int64 nanoseconds) with nothing at all, which made a rewrite delete its series' samples.
 */
const FOREVER = Date.UTC(2262, 0, 1);

/**
 * Sends a batch, writes the hour rollups it closed or changed, and updates the book; answers how
 * many series were rewritten. VictoriaMetrics keeps every sample it is sent, also two at the same
 * time, and cannot replace one sample: a point resent with the value it has is dropped, and a point
 * that changes a stored one rewrites its series (export, delete, import with the new value), so the
 * last written wins as in the DuckDB wing. A failed commit leaves its series in doubt up to its
 * newest point (its import may have been stored), so a resend is looked up like any older point.
 */
export async function commitPoints(
  client: VictoriaClient,
  book: SeriesBook,
  rollups: RollupContext<SeriesState>,
  batch: readonly (readonly Point[])[],
  undo: RewriteUndo,
): Promise<number> {
  await restoreRewrite(client, undo);
  const groups = new Map<SeriesState, Group>();
  for (const points of batch) {
    for (const p of points) {
      const st = book.ensure(p.thingId, p.metric);
      let g = groups.get(st);
      if (!g) {
        g = { st, ts: [], values: [] };
        groups.set(st, g);
      }
      g.ts.push(p.ts);
      g.values.push(p.value);
    }
  }
  for (const g of groups.values()) sortAndDedupe(g);
  try {
    return await send(client, book, rollups, groups, undo);
  } catch (error) {
    for (const g of groups.values()) {
      const last = g.ts[g.ts.length - 1];
      if (last !== undefined && (g.st.doubtTs === null || last > g.st.doubtTs)) g.st.doubtTs = last;
    }
    throw error;
  }
}

/**
 * A rewrite deletes its series before importing them again: if the import or its flush fails, the
 * samples the series held before are kept here and put back (delete, import, flush: repeatable)
 * before the next commit or at close, so a failed rewrite loses nothing while the process lives.
 */
export interface RewriteUndo {
  pending: { selectors: string[]; series: ExportedSeries[] } | null;
}

export async function restoreRewrite(client: VictoriaClient, undo: RewriteUndo): Promise<void> {
  const pending = undo.pending;
  if (!pending) return;
  await client.deleteSeries(pending.selectors);
  await client.importSeries(pending.series);
  await client.flush();
  undo.pending = null;
}

/** Newest time up to which a series may have stored samples: points up to it are looked up first. */
const storedTo = (st: SeriesState): number =>
  Math.max(st.latestTs ?? Number.NEGATIVE_INFINITY, st.doubtTs ?? Number.NEGATIVE_INFINITY);

async function send(
  client: VictoriaClient,
  book: SeriesBook,
  rollups: RollupContext<SeriesState>,
  groups: Map<SeriesState, Group>,
  undo: RewriteUndo,
): Promise<number> {
  const touched = new Map<SeriesState, number>();
  const overlapping = [...groups.values()].filter((g) => (g.ts[0] as number) <= storedTo(g.st));
  const rewrite = new Set<SeriesState>();
  if (overlapping.length > 0) {
    // A failed commit's import may have arrived unflushed: make it readable before looking.
    if (overlapping.some((g) => g.st.doubtTs !== null && (g.ts[0] as number) <= g.st.doubtTs))
      await client.flush();
    const lo = Math.min(...overlapping.map((g) => g.ts[0] as number));
    const hi = Math.max(...overlapping.map((g) => g.ts[g.ts.length - 1] as number));
    const stored = await client.exportSeries(
      overlapping.map((g) => g.st.selector),
      lo,
      hi,
    );
    for (const s of stored) {
      const st = book.state(s.labels);
      const g = st && groups.get(st);
      if (!g) continue;
      const at = new Map(s.ts.map((t, i) => [t, s.values[i] as number]));
      const same = g.ts.map((t, i) => at.get(t) === g.values[i]);
      if (g.ts.some((t, i) => !same[i] && at.has(t))) rewrite.add(g.st);
      else if (same.includes(true)) {
        // Points stored with their value already are not sent again; those after the latest time
        // (a failed commit's) still count as this commit's for the rollups and the latest value.
        const latest = g.st.latestTs ?? Number.NEGATIVE_INFINITY;
        const keep = g.ts.map((t, i) => !same[i] || t > latest);
        g.stored = new Set(g.ts.filter((t, i) => same[i] && t > latest));
        g.ts = g.ts.filter((_, i) => keep[i]);
        g.values = g.values.filter((_, i) => keep[i]);
      }
    }
  }
  for (const g of groups.values()) if (g.ts.length > 0) touched.set(g.st, g.ts[0] as number);
  const out: ExportedSeries[] = [];
  if (rewrite.size > 0) {
    const sel = [...rewrite].map((st) => st.selector);
    const whole = await client.exportSeries(sel, 0, FOREVER);
    for (const s of whole) {
      const st = book.state(s.labels);
      const g = st && groups.get(st);
      if (!g) continue;
      merge(g, s);
    }
    // From the delete until the new samples are readable, the series' only copy is in memory.
    undo.pending = { selectors: sel, series: whole };
    await client.deleteSeries(sel);
  }
  for (const g of groups.values()) {
    const stored = g.stored;
    const ts = stored ? g.ts.filter((t) => !stored.has(t)) : g.ts;
    const values = stored ? g.values.filter((_, i) => !stored.has(g.ts[i] as number)) : g.values;
    if (ts.length > 0) out.push({ labels: book.labels(g.st), ts, values });
  }
  await client.importSeries(out);
  await client.flush();
  undo.pending = null;
  await closeHours(rollups, groups, touched);
  for (const g of groups.values()) {
    const st = g.st;
    if (g.ts.length === 0) continue;
    const first = g.ts[0] as number;
    const last = g.ts[g.ts.length - 1] as number;
    if (!rewrite.has(st) && (st.latestTs === null || first > st.latestTs))
      st.intervalMs = nextInterval(st.intervalMs, st.latestTs, g.ts);
    if (st.firstTs === null || first < st.firstTs) st.firstTs = first;
    if (st.latestTs === null || last >= st.latestTs) {
      st.latestTs = last;
      st.latestValue = g.values[g.values.length - 1] as number;
    }
    // This commit's flush made every earlier import readable, and the latest time covers the doubt.
    if (st.doubtTs !== null && st.latestTs >= st.doubtTs) st.doubtTs = null;
  }
  return rewrite.size;
}

/**
 * Writes the rollups of the hours a commit closed or changed, before its points count as the
 * latest (readers take every hour before a series' latest one from the rollups): per series,
 * from the hour of its earliest written point (or its open hour before, if earlier) up to its new
 * open hour.
 */
async function closeHours(
  rollups: RollupContext<SeriesState>,
  groups: Map<SeriesState, Group>,
  touched: Map<SeriesState, number>,
): Promise<void> {
  const ranges = new Map<number, { states: SeriesState[]; hi: number }>();
  for (const [st, first] of touched) {
    const g = groups.get(st) as Group;
    const newest = Math.max(st.latestTs ?? first, g.ts[g.ts.length - 1] as number);
    const hi = floorTo(newest, HOUR);
    const lo = Math.min(floorTo(first, HOUR), floorTo(st.latestTs ?? first, HOUR));
    if (st.firstTs === null || first < st.firstTs) st.firstTs = first;
    if (!(lo < hi)) continue;
    const r = ranges.get(lo) ?? { states: [], hi };
    r.states.push(st);
    r.hi = Math.max(r.hi, hi);
    ranges.set(lo, r);
  }
  await writeRollups(rollups, ranges);
}

/** The stored samples of a series with the group's points in it (a point replaces a stored one at its time). */
function merge(g: Group, stored: ExportedSeries): void {
  const at = new Map<number, number>();
  for (let i = 0; i < stored.ts.length; i++) at.set(stored.ts[i] as number, stored.values[i] as number);
  for (let i = 0; i < g.ts.length; i++) at.set(g.ts[i] as number, g.values[i] as number);
  const ts = [...at.keys()].sort((a, b) => a - b);
  g.ts = ts;
  g.values = ts.map((t) => at.get(t) as number);
}
