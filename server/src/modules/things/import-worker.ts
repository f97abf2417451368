import { PassThrough } from 'node:stream';
import { parentPort } from 'node:worker_threads';
import { AppError } from '../../errors.ts';
import { type ImportFormat, parseImportFile } from './import.ts';

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
const inputs = new Map<number, PassThrough>();

async function run(job: number, format: ImportFormat, input: PassThrough) {
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
    inputs.delete(job);
  }
}

port.on('message', (message: Message) => {
  if ('start' in message) {
    const input = new PassThrough();
    inputs.set(message.job, input);
    void run(message.job, message.start, input);
  } else if ('chunk' in message) {
    inputs.get(message.job)?.write(message.chunk);
  } else {
    inputs.get(message.job)?.end();
  }
});
