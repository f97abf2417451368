import { MINUTE } from '@kilowatch/contract/calendar';
import type { Samples } from '../samples.ts';
import type { ExportedSeries, VictoriaClient } from './http.ts';
import type { SeriesBook, SeriesState } from './series.ts';

/** The longest stretch before a read's range exported with it (to find the sample before it). */
const PREV_LOOKBACK = 60 * MINUTE;

/** Samples of each series in [from, to] (ms, inclusive), by series. */
export async function samplesIn(
  client: VictoriaClient,
  book: SeriesBook,
  states: readonly SeriesState[],
  from: number,
  to: number,
): Promise<Map<SeriesState, ExportedSeries>> {
  const out = new Map<SeriesState, ExportedSeries>();
  if (states.length === 0 || to < from) return out;
  for (const s of await client.exportSeries(
    states.map((st) => st.selector),
    from,
    to,
  )) {
    const st = book.state(s.labels);
    if (st) out.set(st, s);
  }
  return out;
}

/**
 * How far before a read the samples are exported with it: a few of the series' typical intervals
 * (a 10 s meter's open hour is read with 1 minute before it, not a whole hour), the hour when an
 * interval is unknown.
 */
function lookbackFor(states: readonly SeriesState[]): number {
  let widest = 0;
  for (const st of states) {
    if (st.intervalMs === null) return PREV_LOOKBACK;
    widest = Math.max(widest, st.intervalMs);
  }
  return Math.min(PREV_LOOKBACK, Math.max(MINUTE, PREV_INTERVALS * widest));
}

/** Typical intervals exported before a read, to find the sample before it. */
const PREV_INTERVALS = 3;

/**
 * Samples in [from, to] and the last sample before `from` of each series: exported together with
 * a few intervals before `from`, then the hour before it for a series that had none there (a gap);
 * a series whose previous sample is older still asks for it alone.
 */
export async function samplesWithPrev(
  client: VictoriaClient,
  book: SeriesBook,
  states: readonly SeriesState[],
  from: number,
  to: number,
  lookback = lookbackFor(states),
): Promise<Map<SeriesState, Samples>> {
  const wide = await samplesIn(client, book, states, from - lookback, to);
  const out = new Map<SeriesState, Samples>();
  const missing: SeriesState[] = [];
  for (const st of states) {
    const s = wide.get(st);
    const ts = s?.ts ?? [];
    const values = s?.values ?? [];
    let i = 0;
    while (i < ts.length && (ts[i] as number) < from) i++;
    const prev = i > 0 ? { ts: ts[i - 1] as number, value: values[i - 1] as number } : null;
    out.set(st, { ts: ts.slice(i), values: values.slice(i), prev });
    if (!prev && st.firstTs !== null && st.firstTs < from - lookback) missing.push(st);
  }
  if (missing.length > 0 && lookback < PREV_LOOKBACK) {
    for (const [st, s] of await samplesWithPrev(client, book, missing, from, to, PREV_LOOKBACK))
      out.set(st, s);
    return out;
  }
  await Promise.all(
    missing.map(async (st) => {
      const at = from - PREV_LOOKBACK - 1;
      const w = `${st.selector}[${at - (st.firstTs as number) + 1}ms]`;
      const [v, t] = await Promise.all([
        client.query(`last_over_time(${w})`, at),
        client.query(`tlast_over_time(${w})`, at),
      ]);
      const s = out.get(st) as Samples;
      if (v[0] && t[0]) s.prev = { ts: Math.round(t[0].value * 1000), value: v[0].value };
    }),
  );
  return out;
}
