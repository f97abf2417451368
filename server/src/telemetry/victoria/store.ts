import { DAY, HOUR, MINUTE, PlantCalendar } from '@kilowatch/contract/calendar';
import { ceilTo, floorTo, nextInterval } from '../buckets.ts';
import { GroupCommit } from '../group-commit.ts';
import {
  columnsFromSamples,
  downsampleSamples,
  emptyColumns,
  planBuckets,
  type Samples,
} from '../samples.ts';
import {
  type BucketColumns,
  type BucketQuery,
  type BucketResult,
  batchPoints,
  batchProblem,
  bucketsOf,
  checkRetention,
  DEFAULT_RETENTION,
  type LatestValue,
  type Point,
  type PointBatch,
  type PointColumns,
  pointProblem,
  type RetentionDays,
  type SeriesKey,
  type TelemetryStore,
  TelemetryWriteError,
  type ThingSeen,
} from '../store.ts';
import { type ExportedSeries, endpoints, selector, VictoriaClient } from './http.ts';
import { type RollupContext, readRollups, writeRollups } from './rollup-io.ts';
import { rollupFits } from './rollups.ts';

export interface VictoriaStoreOptions {
  /** TELEMETRY_URL: a single node (http://host:8428) or a cluster's vminsert path with its tenant. */
  url: string;
  /** TELEMETRY_SELECT_URL: a cluster's vmselect path with the same tenant; unset for a single node. */
  selectUrl?: string;
  /** IANA zone of the plant: day, month and year buckets start at its local midnight. */
  timeZone: string;
  retention?: RetentionDays;
  /** ms since the epoch; decides which buckets are still running and the retention horizon. */
  now?: () => number;
  /** The metric name every point is stored under (default `kilowatch`); labels `thing` and `metric`. */
  name?: string;
  /** Group commit: how long the first write of a batch waits for company, ms (default 5). */
  commitDelayMs?: number;
  /** Group commit: a batch is sent at once when it reaches this many points (default 250,000). */
  maxBatchPoints?: number;
  /**
   * Bucket queries over at least this many series × hours read the hour rollups (default 48);
   * smaller ones read raw samples, which is faster for them. 0: always the rollups when they fit.
   */
  rollupMinHours?: number;
}

interface SeriesState extends SeriesKey {
  selector: string;
  firstTs: number | null;
  intervalMs: number | null;
  latestTs: number | null;
  latestValue: number;
}

/** The points of one series in a batch, sorted by time, one per timestamp (the last written). */
interface Group {
  st: SeriesState;
  ts: number[];
  values: number[];
}

/** Series per export of a paged raw read (pointColumns). */
const POINT_SERIES_PER_EXPORT = 16;
/** How far before a read's range the samples are exported with it (to find the sample before it). */
const PREV_LOOKBACK = 60 * MINUTE;
/**
 * Far enough in the future for "every sample": VictoriaMetrics answers an export ending after
 * 2262-04-11 (int64 nanoseconds) with nothing at all, which made a rewrite delete its series' samples.
 */
const FOREVER = Date.UTC(2262, 0, 1);

/**
 * The VictoriaMetrics telemetry store: raw points as VictoriaMetrics series (`name{thing,metric}`),
 * buckets computed from the exported samples with the backend-neutral rules of ../samples.ts, so a
 * counter's interval-ending `delta` and the `complete` flag are exact (no `increase()`
 * extrapolation). Latest values, first samples and intervals live in memory, filled at open from
 * VictoriaMetrics. See docs/telemetry-store.md, "The VictoriaMetrics wing".
 */
export class VictoriaTelemetryStore implements TelemetryStore {
  readonly calendar: PlantCalendar;
  readonly retention: RetentionDays;
  readonly stats = { commits: 0, points: 0, rewrites: 0 };
  /** The DuckDB wing's counter upgrade has no counterpart here: nothing is ever upgraded. */
  readonly upgraded = null;
  private readonly now: () => number;
  private readonly name: string;
  private readonly client: VictoriaClient;
  private readonly commits: GroupCommit<readonly Point[]>;
  private readonly things = new Map<number, Map<string, SeriesState>>();
  private readonly rollupMinHours: number;
  private closed = false;

  private constructor(options: VictoriaStoreOptions) {
    this.calendar = new PlantCalendar(options.timeZone);
    this.retention = options.retention ?? DEFAULT_RETENTION;
    this.now = options.now ?? Date.now;
    this.name = options.name ?? 'kilowatch';
    this.rollupMinHours = options.rollupMinHours ?? 48;
    if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(this.name)) throw new RangeError(`bad metric name ${this.name}`);
    this.client = new VictoriaClient(endpoints(options.url, options.selectUrl));
    this.commits = new GroupCommit({
      delayMs: options.commitDelayMs ?? 5,
      maxSize: options.maxBatchPoints ?? 250_000,
      size: (points) => points.length,
      commit: async (batches, n) => {
        await this.commit(batches);
        this.stats.commits++;
        this.stats.points += n;
      },
      failure: 'telemetry write failed',
    });
  }

  static async open(options: VictoriaStoreOptions): Promise<VictoriaTelemetryStore> {
    checkRetention(options.retention ?? DEFAULT_RETENTION);
    const store = new VictoriaTelemetryStore(options);
    await store.load();
    return store;
  }

  /**
   * Fills the memory from VictoriaMetrics: every series' latest sample and first sample (instant
   * queries over all time), and the typical interval from the last 15 minutes of samples.
   */
  private async load(): Promise<void> {
    const at = Math.max(Date.now(), this.now()) + DAY;
    // A window whose lookup reaches back before the epoch answers nothing (VictoriaMetrics also
    // reads a step before the window): (1970-01-02, at].
    const all = `{__name__="${this.name}"}[${at - DAY}ms]`;
    const [last, lastTs, firstTs] = await Promise.all([
      this.client.query(`last_over_time(${all})`, at),
      this.client.query(`tlast_over_time(${all})`, at),
      this.client.query(`tfirst_over_time(${all})`, at),
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
    for (const st of this.allSeries()) if (st.latestTs !== null) newest = Math.max(newest, st.latestTs);
    if (!Number.isFinite(newest)) return;
    const recent = await this.client.exportSeries(
      [`{__name__="${this.name}"}`],
      newest - 15 * MINUTE,
      newest,
    );
    for (const s of recent) {
      const st = this.state(s.labels);
      if (st) st.intervalMs = nextInterval(null, null, s.ts);
    }
  }

  /** The series of an exported label set (created in memory when new). */
  private state(labels: Record<string, string>): SeriesState | undefined {
    const thingId = Number(labels.thing);
    const metric = labels.metric;
    if (!Number.isSafeInteger(thingId) || metric === undefined) return undefined;
    return this.ensure(thingId, metric);
  }

  private get(thingId: number, metric: string): SeriesState | undefined {
    return this.things.get(thingId)?.get(metric);
  }

  private ensure(thingId: number, metric: string): SeriesState {
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
      };
      m.set(metric, st);
    }
    return st;
  }

  private *allSeries(): Iterable<SeriesState> {
    for (const m of this.things.values()) yield* m.values();
  }

  private labels(st: SeriesState): Record<string, string> {
    return { __name__: this.name, thing: String(st.thingId), metric: st.metric };
  }

  // ---------------------------------------------------------------- writes

  /** Oldest timestamp write() accepts now (the raw retention, as the DuckDB wing). */
  writableFrom(now = this.now()): number {
    return ceilTo(now - this.retention.rawDays * DAY, MINUTE);
  }

  write(points: readonly Point[]): Promise<void> {
    if (this.closed) return Promise.reject(new TelemetryWriteError('the telemetry store is closed'));
    if (points.length === 0) return Promise.resolve();
    const from = this.writableFrom();
    for (const p of points) {
      const problem = pointProblem(p, from);
      if (problem) {
        return Promise.reject(
          new TelemetryWriteError(`point ${p.thingId}/${p.metric}@${p.ts}: ${problem}; nothing was written`),
        );
      }
    }
    return this.commits.add(points);
  }

  /** Points go to VictoriaMetrics one by one anyway: the batch is checked, then written as points. */
  writeBatch(batch: PointBatch): Promise<void> {
    if (this.closed) return Promise.reject(new TelemetryWriteError('the telemetry store is closed'));
    const bad = batchProblem(batch, this.writableFrom());
    if (bad) return Promise.reject(new TelemetryWriteError(`${bad.at}: ${bad.problem}; nothing was written`));
    return this.write(batchPoints(batch));
  }

  /**
   * Sends a batch. VictoriaMetrics keeps every sample it is sent, also two at the same time, and
   * cannot replace one sample: a point resent with the value it has is dropped, and a point that
   * changes a stored one rewrites its series (export, delete, import with the new value), so the
   * last written wins as in the DuckDB wing.
   */
  private async commit(batch: readonly (readonly Point[])[]): Promise<void> {
    const groups = new Map<SeriesState, Group>();
    for (const points of batch) {
      for (const p of points) {
        const st = this.ensure(p.thingId, p.metric);
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
    const touched = new Map<SeriesState, number>();
    const overlapping = [...groups.values()].filter(
      (g) => g.st.latestTs !== null && (g.ts[0] as number) <= (g.st.latestTs as number),
    );
    const rewrite = new Set<SeriesState>();
    if (overlapping.length > 0) {
      const lo = Math.min(...overlapping.map((g) => g.ts[0] as number));
      const hi = Math.max(...overlapping.map((g) => g.ts[g.ts.length - 1] as number));
      const stored = await this.client.exportSeries(
        overlapping.map((g) => g.st.selector),
        lo,
        hi,
      );
      for (const s of stored) {
        const st = this.state(s.labels);
        const g = st && groups.get(st);
        if (!g) continue;
        const at = new Map(s.ts.map((t, i) => [t, s.values[i] as number]));
        const keep = g.ts.map((t, i) => at.get(t) !== g.values[i]);
        if (g.ts.some((t, i) => keep[i] && at.has(t))) rewrite.add(g.st);
        else if (keep.includes(false)) {
          g.ts = g.ts.filter((_, i) => keep[i]);
          g.values = g.values.filter((_, i) => keep[i]);
        }
      }
    }
    for (const g of groups.values()) if (g.ts.length > 0) touched.set(g.st, g.ts[0] as number);
    const out: ExportedSeries[] = [];
    if (rewrite.size > 0) {
      const sel = [...rewrite].map((st) => st.selector);
      const whole = await this.client.exportSeries(sel, 0, FOREVER);
      for (const s of whole) {
        const st = this.state(s.labels);
        const g = st && groups.get(st);
        if (!g) continue;
        merge(g, s);
      }
      await this.client.deleteSeries(sel);
      this.stats.rewrites += rewrite.size;
    }
    for (const g of groups.values()) {
      if (g.ts.length > 0) out.push({ labels: this.labels(g.st), ts: g.ts, values: g.values });
    }
    await this.client.importSeries(out);
    await this.client.flush();
    await this.closeHours(groups, touched);
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
    }
  }

  // ---------------------------------------------------------------- reads

  /** What the store knows of a series: its first sample, typical interval (as the DuckDB wing's describe). */
  describe(series: SeriesKey): { firstTs: number | null; intervalMs: number | null } | undefined {
    const st = this.get(series.thingId, series.metric);
    return st && st.latestTs !== null ? { firstTs: st.firstTs, intervalMs: st.intervalMs } : undefined;
  }

  latest(series: readonly SeriesKey[]): LatestValue[] {
    const out: LatestValue[] = [];
    for (const s of series) {
      const st = this.get(s.thingId, s.metric);
      if (st && st.latestTs !== null)
        out.push({ thingId: st.thingId, metric: st.metric, ts: st.latestTs, value: st.latestValue });
    }
    return out;
  }

  lastSeen(): Map<number, ThingSeen> {
    const out = new Map<number, ThingSeen>();
    for (const st of this.allSeries()) {
      if (st.latestTs === null) continue;
      const seen = out.get(st.thingId);
      if (!seen) {
        out.set(st.thingId, { ts: st.latestTs, intervalMs: st.intervalMs });
        continue;
      }
      if (st.latestTs > seen.ts) seen.ts = st.latestTs;
      if (st.intervalMs !== null && (seen.intervalMs === null || st.intervalMs < seen.intervalMs))
        seen.intervalMs = st.intervalMs;
    }
    return out;
  }

  /** Stored series among these (once each), with samples. */
  private known(series: readonly SeriesKey[]): SeriesState[] {
    const out = new Set<SeriesState>();
    for (const s of series) {
      const st = this.get(s.thingId, s.metric);
      if (st && st.latestTs !== null) out.add(st);
    }
    return [...out];
  }

  /** Samples of each series in [from, to] (ms, inclusive), by series. */
  private async samplesIn(
    states: readonly SeriesState[],
    from: number,
    to: number,
  ): Promise<Map<SeriesState, ExportedSeries>> {
    const out = new Map<SeriesState, ExportedSeries>();
    if (states.length === 0 || to < from) return out;
    for (const s of await this.client.exportSeries(
      states.map((st) => st.selector),
      from,
      to,
    )) {
      const st = this.state(s.labels);
      if (st) out.set(st, s);
    }
    return out;
  }

  /**
   * Samples in [from, to] and the last sample before `from` of each series: exported together
   * with the hour before `from`; a series whose previous sample is older asks for it alone.
   */
  private async samplesWithPrev(
    states: readonly SeriesState[],
    from: number,
    to: number,
  ): Promise<Map<SeriesState, Samples>> {
    const wide = await this.samplesIn(states, from - PREV_LOOKBACK, to);
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
      if (!prev && st.firstTs !== null && st.firstTs < from - PREV_LOOKBACK) missing.push(st);
    }
    await Promise.all(
      missing.map(async (st) => {
        const at = from - PREV_LOOKBACK - 1;
        const w = `${st.selector}[${at - (st.firstTs as number) + 1}ms]`;
        const [v, t] = await Promise.all([
          this.client.query(`last_over_time(${w})`, at),
          this.client.query(`tlast_over_time(${w})`, at),
        ]);
        const s = out.get(st) as Samples;
        if (v[0] && t[0]) s.prev = { ts: Math.round(t[0].value * 1000), value: v[0].value };
      }),
    );
    return out;
  }

  async points(series: SeriesKey, start: number, end: number, limit: number): Promise<Point[]> {
    const [st] = this.known([series]);
    if (!st || !(end > start) || limit <= 0) return [];
    const s = (await this.samplesIn([st], Math.ceil(start), Math.ceil(end) - 1)).get(st);
    const n = Math.min(s?.ts.length ?? 0, Math.floor(limit));
    const out: Point[] = new Array(n);
    for (let i = 0; i < n; i++)
      out[i] = {
        thingId: st.thingId,
        metric: st.metric,
        ts: s?.ts[i] as number,
        value: s?.values[i] as number,
      };
    return out;
  }

  async pointColumns(
    series: readonly SeriesKey[],
    start: number,
    end: number,
    limit: number,
    after?: number,
  ): Promise<PointColumns> {
    const empty = { index: new Float64Array(0), ts: new Float64Array(0), values: new Float64Array(0) };
    if (this.known(series).length === 0 || !(end > start) || limit <= 0) return empty;
    const index: number[] = [];
    const ts: number[] = [];
    const values: number[] = [];
    const cap = Math.floor(limit);
    // A few series per export, in the query's order, until the page is full: a paged read (the
    // bill's demand over every meter's month) does not export the whole range for every page.
    for (let k0 = 0; k0 < series.length && ts.length < cap; k0 += POINT_SERIES_PER_EXPORT) {
      const keys = series.slice(k0, k0 + POINT_SERIES_PER_EXPORT);
      const data = await this.samplesIn(this.known(keys), Math.ceil(start), Math.ceil(end) - 1);
      keys.forEach((key, j) => {
        const k = k0 + j;
        const st = this.get(key.thingId, key.metric);
        const s = st && data.get(st);
        if (!s) return;
        for (let i = 0; i < s.ts.length && ts.length < cap; i++) {
          const t = s.ts[i] as number;
          if (k === 0 && after !== undefined && t <= after) continue;
          index.push(k);
          ts.push(t);
          values.push(s.values[i] as number);
        }
      });
    }
    return { index: Float64Array.from(index), ts: Float64Array.from(ts), values: Float64Array.from(values) };
  }

  async bucketColumns(query: BucketQuery): Promise<BucketColumns> {
    const plan = planBuckets(this.calendar, query);
    if (!plan) return emptyColumns(query.series, 'raw');
    const states = this.known(query.series);
    if (rollupFits(query, plan) && (states.length * (plan.to - plan.from)) / HOUR >= this.rollupMinHours)
      return readRollups(
        this.rollups,
        query,
        plan,
        states,
        (k) => this.known([query.series[k] as SeriesKey])[0],
        this.now(),
      );
    const samples = await this.samplesWithPrev(states, plan.from, plan.to);
    const now = this.now();
    return columnsFromSamples(
      query,
      plan,
      (k) => {
        const key = query.series[k] as SeriesKey;
        const st = this.get(key.thingId, key.metric);
        const s = st && samples.get(st);
        return st && s ? { samples: s, facts: st } : undefined;
      },
      now,
    );
  }

  private get rollups(): RollupContext<SeriesState> {
    return {
      client: this.client,
      name: `${this.name}_hour`,
      samplesWithPrev: (states, from, to) => this.samplesWithPrev(states, from, to),
    };
  }

  /**
   * Writes the rollups of the hours a commit closed or changed, before its points count as the
   * latest (readers take every hour before a series' latest one from the rollups): per series,
   * from the hour of its earliest written point (or its open hour before, if earlier) up to its new
   * open hour.
   */
  private async closeHours(
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
    await writeRollups(this.rollups, ranges);
  }

  async buckets(query: BucketQuery): Promise<BucketResult> {
    return bucketsOf(await this.bucketColumns(query));
  }

  async downsample(series: SeriesKey, start: number, end: number, maxPoints: number): Promise<Point[]> {
    const [st] = this.known([series]);
    if (!st || !(end > start) || maxPoints < 1) return [];
    const s = (await this.samplesIn([st], Math.ceil(start), Math.ceil(end) - 1)).get(st);
    return downsampleSamples(this.calendar, st, s?.ts ?? [], s?.values ?? [], start, end, maxPoints);
  }

  // ---------------------------------------------------------------- maintenance

  /**
   * Nothing to do: VictoriaMetrics keeps every sample for its own `-retentionPeriod` (one setting
   * for the whole instance) and drops older ones itself, hour rollups with the raw samples.
   */
  async applyRetention(_now: number): Promise<void> {}

  /** Sends what is queued; later writes are refused. */
  /** VictoriaMetrics' /health on the insert side and, for a cluster, on vmselect. */
  async ping(): Promise<void> {
    await this.client.ping();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.commits.flush();
  }
}

/** Sorts a group's points by time; of points at the same time, the last written wins. */
function sortAndDedupe(g: Group): void {
  const order = Array.from({ length: g.ts.length }, (_, i) => i);
  order.sort((a, b) => (g.ts[a] as number) - (g.ts[b] as number) || a - b);
  const ts: number[] = [];
  const values: number[] = [];
  for (const i of order) {
    const t = g.ts[i] as number;
    if (ts.length > 0 && ts[ts.length - 1] === t) values[values.length - 1] = g.values[i] as number;
    else {
      ts.push(t);
      values.push(g.values[i] as number);
    }
  }
  g.ts = ts;
  g.values = values;
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
