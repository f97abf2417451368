import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AppError } from '../../../errors.ts';
import type { MessageKey } from '../../../i18n/index.ts';
import type { ImportFormat } from './columns.ts';
import type { ParsedImport } from './read.ts';

/**
 * The worker's entry: the server runs TypeScript through tsx, and Node 20 does not hand a loader
 * given with --import on to worker threads, so the worker registers tsx itself first.
 */
const WORKER_BOOT = `import(${JSON.stringify(
  // tsx's ESM API ("tsx/esm/api" under the import condition), found from this file, not the cwd.
  pathToFileURL(
    join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs'),
  ).href,
)}).then(({ register }) => { register(); return import(${JSON.stringify(
  new URL('./worker.ts', import.meta.url).href,
)}); })`;

type WorkerAnswer = { job: number } & (
  | { parsed: ParsedImport }
  | { refused: { code: AppError['code']; status: number; params: AppError['params']; message?: MessageKey } }
  | { failed: string }
);

/** A parser worker lives this long after its last job: starting one costs about a second. */
const WORKER_IDLE_MS = 60_000;

/** The one parser worker, started on the first import and ended when idle. */
const parser = {
  worker: undefined as Worker | undefined,
  jobs: new Map<number, (answer: WorkerAnswer | Error) => void>(),
  next: 1,
  idle: undefined as NodeJS.Timeout | undefined,

  start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_BOOT, { eval: true });
    // An idle parser must not keep the process alive.
    worker.unref();
    worker.on('message', (answer: WorkerAnswer) => {
      this.jobs.get(answer.job)?.(answer);
      this.jobs.delete(answer.job);
      this.settle();
    });
    const gone = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const done of this.jobs.values()) done(error);
      this.jobs.clear();
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`import worker exited (${code})`)));
    this.worker = worker;
    return worker;
  },

  settle() {
    clearTimeout(this.idle);
    if (this.jobs.size > 0) return;
    this.idle = setTimeout(() => {
      const worker = this.worker;
      this.worker = undefined;
      void worker?.terminate();
    }, WORKER_IDLE_MS);
    this.idle.unref();
  },
};

/**
 * parseImportFile in a worker thread, fed with the upload as it arrives: however the file is
 * built (a spreadsheet parser works a chunk at a time, ~1,800 rows of XML in one go), the
 * server's event loop never waits for it. The upload is read to its end even when the worker
 * answered early, so the request completes.
 */
export async function parseImportUpload(source: Readable, format: ImportFormat): Promise<ParsedImport> {
  const worker = parser.start();
  clearTimeout(parser.idle);
  const job = parser.next++;
  let answered = false;
  let refuse: (error: Error) => void = () => {};
  const answer = new Promise<WorkerAnswer>((resolve, reject) => {
    refuse = reject;
    parser.jobs.set(job, (outcome) => {
      answered = true;
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    });
  });
  worker.postMessage({ job, start: format });
  const fed = (async () => {
    try {
      for await (const chunk of source.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
        if (!answered) worker.postMessage({ job, chunk });
      }
    } catch {
      // The upload broke off (a multipart body cut short): no more bytes will come, so the worker
      // would wait for them forever. It is told the file ended, and the request is refused.
      if (!answered) {
        answered = true;
        worker.postMessage({ job, end: true });
        refuse(new AppError('BAD_REQUEST', 400, {}, { message: 'import.unreadable' }));
      }
      return;
    }
    if (!answered) worker.postMessage({ job, end: true });
  })();
  // Awaited below once the worker answers; when the worker fails first, that failure is the answer.
  fed.catch(() => undefined);
  const outcome = await answer;
  await fed;
  if ('failed' in outcome) throw new Error(`import worker failed: ${outcome.failed}`);
  if ('refused' in outcome) {
    const { code, status, params, message } = outcome.refused;
    throw new AppError(code, status, params, message ? { message } : {});
  }
  return outcome.parsed;
}
