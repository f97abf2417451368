/**
 * What ingest-bench prints of its runs: one run as it ends, and the summary table of them all
 * (the baseline, when there is one, is the 100 % of the table's ratio column).
 */
import { fmt, loadAverage, log, median, quantile } from './harness.ts';

export interface RunResult {
  label: string;
  rates: number[];
  seconds: number;
  points: number;
  errors: number;
  realtime: number[];
  data: number[];
  serverCores: number;
  clientCores: number;
  /** The server's event-loop delay while the bench sent (ms; absent for the baseline). */
  lag?: LoopLag;
  bytesPerPoint: number;
  /** `--at-rest`: after the store's maintenance on the stopped server's folder. */
  atRest?: { seconds: number; bytesPerPoint: number; usedPerPoint: number };
  stats?: unknown;
}

export interface LoopLag {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** The sustained rate of a run: the median, min and max of its windows of `windowMs`. */
export function summarize(label: string, rates: number[], windowMs: number) {
  log(
    `  ${label}: median ${fmt(median(rates))} points/s over ${rates.length} windows of ${windowMs / 1000} s ` +
      `(min ${fmt(Math.min(...rates))}, max ${fmt(Math.max(...rates))})`,
  );
}

export function report(r: RunResult, windowMs: number) {
  summarize(r.label, r.rates, windowMs);
  log(
    `    ${fmt(r.points)} points acknowledged in ${r.seconds.toFixed(1)} s (${fmt(r.points / r.seconds)} points/s overall), ` +
      `errors ${r.errors}, server ${r.serverCores.toFixed(2)} cores, bench client ${r.clientCores.toFixed(2)} cores, ` +
      `${r.bytesPerPoint.toFixed(2)} bytes/point on disk; server counters ${JSON.stringify(r.stats)}`,
  );
  log(
    `    during ingest: realtime median ${median(r.realtime).toFixed(2)} ms, p95 ${quantile(r.realtime, 0.95).toFixed(2)} ms, max ${Math.max(...r.realtime).toFixed(1)} ms (${r.realtime.length}); ` +
      `data last 5 min × 10 series median ${median(r.data).toFixed(2)} ms, p95 ${quantile(r.data, 0.95).toFixed(2)} ms, max ${Math.max(...r.data).toFixed(1)} ms (${r.data.length})`,
  );
  if (r.atRest)
    log(
      `    at rest (the store's maintenance, ${r.atRest.seconds.toFixed(1)} s): the file ${r.atRest.bytesPerPoint.toFixed(2)} bytes/point, blocks in use ${r.atRest.usedPerPoint.toFixed(2)} bytes/point`,
    );
  if (r.lag)
    log(
      `    server event-loop delay during ingest: p50 ${r.lag.p50} ms, p95 ${r.lag.p95} ms, p99 ${r.lag.p99} ms, max ${r.lag.max} ms`,
    );
}

export function summaryTable(results: readonly RunResult[]) {
  const base = results.find((r) => r.label.startsWith('baseline'));
  log(`\nsummary (load average now ${loadAverage()}):`);
  log(
    '| run | sustained points/s (median of windows) | p5–max of windows | vs baseline | target ≥ 300k | realtime median / p95 ms | data (last 5 min × 10 series) median / p95 ms | server CPU cores | client CPU cores | event-loop delay p50 / p95 / p99 / max ms | bytes/point | at rest: file / in use, bytes/point |',
  );
  log('|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    const m = median(r.rates);
    const isBase = r === base;
    log(
      `| ${r.label} | ${fmt(m)} | ${fmt(quantile(r.rates, 0.05))}–${fmt(Math.max(...r.rates))} | ${
        base && !isBase ? `${((100 * m) / median(base.rates)).toFixed(0)} %` : ''
      } | ${isBase ? '' : m >= 300_000 ? 'OK' : `MISSED (${((100 * m) / 300_000).toFixed(0)} %)`} | ${
        r.realtime.length
          ? `${median(r.realtime).toFixed(1)} / ${quantile(r.realtime, 0.95).toFixed(1)} (${r.realtime.length})`
          : ''
      } | ${r.data.length ? `${median(r.data).toFixed(1)} / ${quantile(r.data, 0.95).toFixed(1)} (${r.data.length})` : ''} | ${
        Number.isNaN(r.serverCores) ? '' : r.serverCores.toFixed(2)
      } | ${r.clientCores.toFixed(2)} | ${r.lag ? `${r.lag.p50} / ${r.lag.p95} / ${r.lag.p99} / ${r.lag.max}` : ''} | ${r.bytesPerPoint.toFixed(2)} | ${
        r.atRest ? `${r.atRest.bytesPerPoint.toFixed(2)} / ${r.atRest.usedPerPoint.toFixed(2)}` : ''
      } |`,
    );
  }
}
