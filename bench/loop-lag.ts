/**
 * Preloaded into the benchmarked server (`node --import ./bench/loop-lag.ts`): samples the main
 * thread's event-loop delay and writes its percentiles (ms) as JSON to `LOOP_LAG_FILE` every
 * second. SIGUSR2 starts a new histogram, so the bench measures only while it sends.
 * The server itself is not changed for this.
 */
import { rename, writeFile } from 'node:fs/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.LOOP_LAG_FILE;
if (file) {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  process.on('SIGUSR2', () => h.reset());
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  let writing = false;
  setInterval(() => {
    // Asynchronous, one at a time: a synchronous write and rename on a busy disk held the very loop
    // this measures (a CPU profile showed `rename` at 3.5 % of the server's main thread).
    if (writing) return;
    writing = true;
    const json = JSON.stringify({
      p50: ms(h.percentile(50)),
      p95: ms(h.percentile(95)),
      p99: ms(h.percentile(99)),
      max: ms(h.max),
      count: h.count,
    });
    // Written aside, then renamed: the bench never reads half a file.
    writeFile(`${file}.tmp`, json)
      .then(() => rename(`${file}.tmp`, file))
      .catch((error: unknown) => console.error(`loop-lag: ${(error as Error).message}`))
      .finally(() => {
        writing = false;
      });
  }, 1000).unref();
}
