import { PassThrough, Readable } from 'node:stream';
import { parentPort } from 'node:worker_threads';
import { AppError } from '../../../errors.ts';
import type { ImportFormat } from './columns.ts';
import { parseImportFile } from './read.ts';

/**
 * Parses import uploads off the main thread (see parseImportUpload): each job's chunks arrive as
 * messages, its rows (or the AppError that refused the file) go back as one message. Jobs run
 * side by side; chunks of a job already answered are dropped.
 */
type Message =
  | { job: number; start: ImportFormat }
  | { job: number; chunk: Uint8Array }
  | { job: number; end: true };

const port = parentPort!;
const jobs = new Map<number, { input: PassThrough; chunks?: never } | { input?: never; chunks: Buffer[] }>();

async function run(job: number, format: ImportFormat, input: Readable) {
  try {
    port.postMessage({ job, parsed: await parseImportFile(input, format) });
  } catch (error) {
    if (error instanceof AppError) {
      const { code, status, params, options } = error;
      port.postMessage({ job, refused: { code, status, params, message: options.message } });
    } else {
      port.postMessage({
        job,
        failed: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
  } finally {
    jobs.delete(job);
  }
}

/**
 * A CSV is parsed as its chunks arrive. An xlsx (at most 5 MB: the zip, not its contents) is
 * collected first and then read in one pass: exceljs's streaming reader, fed a zip that arrives
 * with pauses, sometimes reads a sheet before its shared strings and yields `{ sharedString: n }`
 * for its cells. Its inflated sheets are still read as a stream, up to the row limits.
 */
port.on('message', (message: Message) => {
  if ('start' in message) {
    if (message.start === 'csv') {
      const input = new PassThrough();
      jobs.set(message.job, { input });
      void run(message.job, 'csv', input);
    } else {
      jobs.set(message.job, { chunks: [] });
    }
    return;
  }
  const state = jobs.get(message.job);
  if (!state) return;
  if ('chunk' in message) {
    if (state.input) state.input.write(message.chunk);
    else
      state.chunks.push(
        Buffer.from(message.chunk.buffer, message.chunk.byteOffset, message.chunk.byteLength),
      );
  } else if (state.input) {
    state.input.end();
  } else {
    void run(message.job, 'xlsx', Readable.from([Buffer.concat(state.chunks)]));
  }
});
