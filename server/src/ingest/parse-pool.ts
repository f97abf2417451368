import { availableParallelism } from 'node:os';
import { dedicatedPool } from '../shared/worker-pool.ts';
import type { Parsed, ParseJob } from './parse.ts';

/** Bodies smaller than this are parsed on the main thread: the trip to a worker would cost more. */
export const WORKER_MIN_BYTES = 8 * 1024;

/**
 * Bodies handed to a parse worker at once. The worker parses them one after another (parsing is
 * synchronous) and posts each result as it is done, so it no longer idles between bodies until
 * the main thread, busy with a commit, takes a result and posts the next: under full MQTT ingest
 * a body waited 60–75 ms for its parse with one at a time, 38–45 with four (bench/README.md).
 */
const BODIES_PER_WORKER = 4;

/**
 * Worker threads that parse and check telemetry bodies (parse.ts), so the main thread only routes,
 * writes and answers: a 50,000-value body no longer stalls queries for tens of ms. A pool of its
 * own (not the reports' and backtests' one), so ingest never waits behind a workbook.
 */
export class ParsePool {
  private readonly pool;

  constructor(threads = Math.max(1, Math.min(4, availableParallelism() - 1))) {
    this.pool = dedicatedPool(new URL('./parse-worker.ts', import.meta.url), threads, BODIES_PER_WORKER);
  }

  parse(job: ParseJob): Promise<Parsed> {
    // A copy of exactly the body's bytes moves to the worker: the caller's buffer may be a view of
    // a larger one still in use (an MQTT packet is also forwarded to subscribers).
    const body = new Uint8Array(job.body);
    return this.pool.run<Parsed>({ ...job, body }, [body.buffer]);
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  /** Worker threads running now. */
  get threads(): number {
    return this.pool.threads();
  }
}
