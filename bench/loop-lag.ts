/**
 * Preloaded into the benchmarked server (`node --import ./bench/loop-lag.ts`): samples the main
 * thread's event-loop delay and writes its percentiles (ms) as JSON to `LOOP_LAG_FILE` every
 * second. SIGUSR2 starts a new histogram, so the bench measures only while it sends.
 * The server itself is not changed for this.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.LOOP_LAG_FILE;
if (file) {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  process.on('SIGUSR2', () => h.reset());
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  setInterval(() => {
    // Written aside, then renamed: the bench never reads half a file.
    writeFileSync(
      `${file}.tmp`,
      JSON.stringify({
        p50: ms(h.percentile(50)),
        p95: ms(h.percentile(95)),
        p99: ms(h.percentile(99)),
        max: ms(h.max),
        count: h.count,
      }),
    );
    renameSync(`${file}.tmp`, file);
  }, 1000).unref();
}
