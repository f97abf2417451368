import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Transferable } from 'node:worker_threads';
import { Piscina } from 'piscina';

/**
 * The worker threads of CPU-heavy steps (docs/architecture.md#heavy-work): a backtest over half a
 * million points, a report's workbook. The server's event loop hands the step over and waits,
 * answering health, logins and ingest meanwhile.
 *
 * Tasks are TypeScript modules (a default export taking the input), run by tsx as the server is:
 * each worker starts with tsx's loader, found from this file (not the cwd), since vitest runs
 * without it and Node 20 does not always hand a loader on to worker threads.
 */
const TSX_LOADER = pathToFileURL(
  join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/loader.mjs'),
).href;

/** Two cores on the plant's server: more threads than that only queue for them. */
const MAX_THREADS = 2;
/** A worker lives this long after its last task: starting one (tsx included) costs about a second. */
const IDLE_MS = 60_000;

let pool: Piscina | undefined;

/** Runs `task`'s default export on `input` in a worker; `transfer` moves buffers instead of copying. */
export function runInWorker<T>(task: URL, input: unknown, transfer: Transferable[] = []): Promise<T> {
  pool ??= new Piscina({
    minThreads: 0,
    maxThreads: MAX_THREADS,
    idleTimeout: IDLE_MS,
    execArgv: ['--import', TSX_LOADER],
  });
  return pool.run(input, { filename: task.href, transferList: transfer as never });
}

/**
 * A pool of its own for one task module, for a steady stream of small tasks that must not queue
 * behind a report or a backtest (ingest's parsing). Threads start on first use. Each worker is
 * handed up to `perWorker` tasks at once: with one, a worker waits after every task until the
 * event loop has taken its result and posted the next, idle whenever the main thread is busy.
 */
export function dedicatedPool(task: URL, threads: number, perWorker = 1, idleMs = 10 * 60_000) {
  const own = new Piscina({
    filename: task.href,
    minThreads: 0,
    maxThreads: threads,
    concurrentTasksPerWorker: perWorker,
    idleTimeout: idleMs,
    execArgv: ['--import', TSX_LOADER],
  });
  return {
    run: <T>(input: unknown, transfer: Transferable[] = []): Promise<T> =>
      own.run(input, { transferList: transfer as never }),
    close: () => own.close(),
    /** Worker threads running now (none before the first task and after close). */
    threads: () => own.threads.length,
  };
}
