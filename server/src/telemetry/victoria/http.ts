/**
 * The few VictoriaMetrics HTTP calls the wing makes: JSON-lines import and export, instant
 * queries, series deletion and the single node's flush. Times go as RFC 3339 with milliseconds:
 * VictoriaMetrics truncates fractional seconds (1709856000.123 s can become …122 ms).
 */

/** A series as stored: its labels and samples, oldest first. */
export interface ExportedSeries {
  labels: Record<string, string>;
  ts: number[];
  values: number[];
}

export interface Endpoints {
  /** Base of /api/v1/import (single node: http://host:8428; cluster: http://vminsert:8480/insert/<account>/prometheus). */
  insert: string;
  /** Base of /api/v1/export and /api/v1/query (cluster: http://vmselect:8481/select/<account>/prometheus). */
  select: string;
  /** Base of /api/v1/admin/tsdb/delete_series (cluster: http://vmselect:8481/delete/<account>/prometheus). */
  remove: string;
  /** The single node's /internal/force_flush, which makes imported points readable at once; none in a cluster. */
  flush: string | null;
}

/**
 * Endpoints from TELEMETRY_URL (and TELEMETRY_SELECT_URL for a cluster): a single node serves
 * everything at its root; a cluster's vminsert path `/insert/<account>/…` goes with vmselect's
 * `/select/<account>/…`, whose `/delete/<account>/…` twin deletes.
 */
export function endpoints(url: string, selectUrl?: string): Endpoints {
  const trim = (u: string) => u.replace(/\/+$/, '');
  const insert = trim(url);
  if (!selectUrl) return { insert, select: insert, remove: insert, flush: `${insert}/internal/force_flush` };
  const select = trim(selectUrl);
  const remove = select.replace(/\/select\/([^/]+)/, '/delete/$1');
  return { insert, select, remove, flush: null };
}

export const iso = (ms: number): string => new Date(ms).toISOString();

/** A MetricsQL selector of exact label values (quotes and backslashes escaped). */
export function selector(labels: Record<string, string>): string {
  const parts = Object.entries(labels).map(
    ([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`,
  );
  return `{${parts.join(',')}}`;
}

export class VictoriaClient {
  constructor(
    readonly at: Endpoints,
    private readonly timeoutMs = 120_000,
  ) {}

  private async call(url: string, body: string | URLSearchParams, what: string): Promise<Response> {
    const res = await fetch(url, {
      method: 'POST',
      body,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!res.ok) {
      const text = (await res.text()).slice(0, 500);
      throw new Error(`VictoriaMetrics ${what} answered ${res.status}: ${text}`);
    }
    return res;
  }

  /** Imports series (JSON lines); resolves once VictoriaMetrics accepted them. */
  async importSeries(series: readonly ExportedSeries[]): Promise<void> {
    if (series.length === 0) return;
    const lines = series.map((s) => JSON.stringify({ metric: s.labels, values: s.values, timestamps: s.ts }));
    await (await this.call(`${this.at.insert}/api/v1/import`, `${lines.join('\n')}\n`, 'import')).text();
  }

  /** Makes what was imported readable now (single node only; a cluster shows it within seconds). */
  async flush(): Promise<void> {
    if (!this.at.flush) return;
    const res = await fetch(this.at.flush, { signal: AbortSignal.timeout(this.timeoutMs) });
    if (!res.ok) throw new Error(`VictoriaMetrics force_flush answered ${res.status}`);
    await res.text();
  }

  /**
   * Samples of the series matching any of `selectors` in [start, end] (both inclusive, ms), one
   * entry per series with its samples sorted by time (export may cut a series into several lines).
   */
  async exportSeries(selectors: readonly string[], start: number, end: number): Promise<ExportedSeries[]> {
    if (selectors.length === 0 || end < start) return [];
    const form = new URLSearchParams();
    for (const s of selectors) form.append('match[]', s);
    form.set('start', iso(Math.max(0, start)));
    form.set('end', iso(end));
    const res = await this.call(`${this.at.select}/api/v1/export`, form, 'export');
    const text = await res.text();
    const byKey = new Map<string, ExportedSeries & { sorted: boolean }>();
    let from = 0;
    while (from < text.length) {
      let to = text.indexOf('\n', from);
      if (to < 0) to = text.length;
      if (to > from) {
        const line = JSON.parse(text.slice(from, to)) as {
          metric: Record<string, string>;
          values: number[];
          timestamps: number[];
        };
        const key = JSON.stringify(Object.entries(line.metric).sort());
        const seen = byKey.get(key);
        if (seen) {
          seen.ts.push(...line.timestamps);
          seen.values.push(...line.values);
          seen.sorted = false;
        } else {
          byKey.set(key, { labels: line.metric, ts: line.timestamps, values: line.values, sorted: false });
        }
      }
      from = to + 1;
    }
    const out: ExportedSeries[] = [];
    for (const s of byKey.values()) {
      sortByTime(s);
      out.push({ labels: s.labels, ts: s.ts, values: s.values });
    }
    return out;
  }

  /** An instant query at `time` (ms): each result's labels and value. */
  async query(expr: string, time: number): Promise<{ labels: Record<string, string>; value: number }[]> {
    const form = new URLSearchParams({ query: expr, time: iso(time), nocache: '1' });
    const res = await this.call(`${this.at.select}/api/v1/query`, form, 'query');
    const body = (await res.json()) as {
      data: { result: { metric: Record<string, string>; value: [number, string] }[] };
    };
    return body.data.result.map((r) => ({ labels: r.metric, value: Number(r.value[1]) }));
  }

  /**
   * A range query evaluated at start, start + step, … up to end (ms): each result's labels and its
   * points as [ms, value]. `nocache` also keeps VictoriaMetrics from moving start and end to
   * multiples of the step, which would shift buckets that start at a local midnight.
   */
  async queryRange(
    expr: string,
    start: number,
    end: number,
    step: number,
  ): Promise<{ labels: Record<string, string>; points: [number, number][] }[]> {
    const form = new URLSearchParams({
      query: expr,
      start: iso(start),
      end: iso(end),
      step: `${step}ms`,
      nocache: '1',
    });
    const res = await this.call(`${this.at.select}/api/v1/query_range`, form, 'query_range');
    const body = (await res.json()) as {
      data: { result: { metric: Record<string, string>; values: [number, string][] }[] };
    };
    return body.data.result.map((r) => ({
      labels: r.metric,
      points: r.values.map(([t, v]) => [Math.round(t * 1000), Number(v)]),
    }));
  }

  /** Deletes every sample of the series matching `selectors`. */
  async deleteSeries(selectors: readonly string[]): Promise<void> {
    if (selectors.length === 0) return;
    const form = new URLSearchParams();
    for (const s of selectors) form.append('match[]', s);
    await (await this.call(`${this.at.remove}/api/v1/admin/tsdb/delete_series`, form, 'delete')).text();
  }

  /**
   * Resolves when VictoriaMetrics answers /health where points go in and, for a cluster, where they
   * are read (vminsert and vmselect are separate services); rejects naming the one that did not.
   */
  async ping(): Promise<void> {
    const root = (base: string) => new URL(base).origin;
    const bases = [...new Set([root(this.at.insert), root(this.at.select)])];
    await Promise.all(
      bases.map(async (base) => {
        const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(2000) }).catch(
          (error: unknown) => {
            throw new Error(`VictoriaMetrics at ${base} not reached: ${(error as Error).message}`);
          },
        );
        await res.text();
        if (!res.ok) throw new Error(`VictoriaMetrics at ${base} answered /health with ${res.status}`);
      }),
    );
  }
}

/** Sorts samples by time; of samples at the same time, the one exported last is kept. */
function sortByTime(s: { ts: number[]; values: number[] }): void {
  let ordered = true;
  for (let i = 1; i < s.ts.length; i++) {
    if ((s.ts[i] as number) <= (s.ts[i - 1] as number)) {
      ordered = false;
      break;
    }
  }
  if (ordered) return;
  const order = Array.from({ length: s.ts.length }, (_, i) => i);
  order.sort((a, b) => (s.ts[a] as number) - (s.ts[b] as number) || a - b);
  const ts: number[] = [];
  const values: number[] = [];
  for (const i of order) {
    const t = s.ts[i] as number;
    if (ts.length > 0 && ts[ts.length - 1] === t) values[values.length - 1] = s.values[i] as number;
    else {
      ts.push(t);
      values.push(s.values[i] as number);
    }
  }
  s.ts = ts;
  s.values = values;
}
