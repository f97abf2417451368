import { DAY, MINUTE } from '@kilowatch/contract/calendar';
import { nextInterval } from '../buckets.ts';
import type { SeriesKey } from '../store.ts';
import { selector, type VictoriaClient } from './http.ts';

/** What the store keeps in memory of one series: its selector, first and latest sample, interval. */
export interface SeriesState extends SeriesKey {
  selector: string;
  firstTs: number | null;
  intervalMs: number | null;
  latestTs: number | null;
  latestValue: number;
  /**
   * Newest time of a failed commit's points: VictoriaMetrics may have stored them (an import can
   * arrive though its answer is lost), so a resend up to here is checked against what is stored.
   */
  doubtTs: number | null;
}

/**
 * The series the store knows, by thing and metric, stored under one metric name with labels
 * `thing` and `metric`. Each series has one state object, so states serve as map keys.
 */
export class SeriesBook {
  private readonly things = new Map<number, Map<string, SeriesState>>();

  constructor(readonly name: string) {
    if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(name)) throw new RangeError(`bad metric name ${name}`);
  }

  /** The series of an exported label set (created in memory when new). */
  state(labels: Record<string, string>): SeriesState | undefined {
    const thingId = Number(labels.thing);
    const metric = labels.metric;
    if (!Number.isSafeInteger(thingId) || metric === undefined) return undefined;
    return this.ensure(thingId, metric);
  }

  get(thingId: number, metric: string): SeriesState | undefined {
    return this.things.get(thingId)?.get(metric);
  }

  ensure(thingId: number, metric: string): SeriesState {
    let m = this.things.get(thingId);
    if (!m) {
      m = new Map();
      this.things.set(thingId, m);
    }
    let st = m.get(metric);
    if (!st) {
      st = {
        thingId,
        metric,
        selector: selector({ __name__: this.name, thing: String(thingId), metric }),
        firstTs: null,
        intervalMs: null,
        latestTs: null,
        latestValue: 0,
        doubtTs: null,
      };
      m.set(metric, st);
    }
    return st;
  }

  *all(): Iterable<SeriesState> {
    for (const m of this.things.values()) yield* m.values();
  }

  labels(st: SeriesState): Record<string, string> {
    return { __name__: this.name, thing: String(st.thingId), metric: st.metric };
  }

  /** Stored series among these (once each), with samples. */
  known(series: readonly SeriesKey[]): SeriesState[] {
    const out = new Set<SeriesState>();
    for (const s of series) {
      const st = this.get(s.thingId, s.metric);
      if (st && st.latestTs !== null) out.add(st);
    }
    return [...out];
  }

  /**
   * Fills the book from VictoriaMetrics: every series' latest sample and first sample (instant
   * queries over all time), and the typical interval from the last 15 minutes of samples.
   */
  async load(client: VictoriaClient, now: number): Promise<void> {
    const at = Math.max(Date.now(), now) + DAY;
    // A window whose lookup reaches back before the epoch answers nothing (VictoriaMetrics also
    // reads a step before the window): (1970-01-02, at].
    const all = `{__name__="${this.name}"}[${at - DAY}ms]`;
    const [last, lastTs, firstTs] = await Promise.all([
      client.query(`last_over_time(${all})`, at),
      client.query(`tlast_over_time(${all})`, at),
      client.query(`tfirst_over_time(${all})`, at),
    ]);
    const seconds = (x: number) => Math.round(x * 1000);
    for (const r of lastTs) {
      const st = this.state(r.labels);
      if (st) st.latestTs = seconds(r.value);
    }
    for (const r of last) {
      const st = this.state(r.labels);
      if (st) st.latestValue = r.value;
    }
    for (const r of firstTs) {
      const st = this.state(r.labels);
      if (st) st.firstTs = seconds(r.value);
    }
    let newest = Number.NEGATIVE_INFINITY;
    for (const st of this.all()) if (st.latestTs !== null) newest = Math.max(newest, st.latestTs);
    if (!Number.isFinite(newest)) return;
    const recent = await client.exportSeries([`{__name__="${this.name}"}`], newest - 15 * MINUTE, newest);
    for (const s of recent) {
      const st = this.state(s.labels);
      if (st) st.intervalMs = nextInterval(null, null, s.ts);
    }
  }
}
