import { PassThrough } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '../../errors.ts';
import { type ImportFormat, parseImportFile } from './import.ts';

/**
 * Parses one import upload off the main thread: the file's chunks arrive as messages, the rows
 * (or the AppError that refused the file) go back as one message. See parseImportUpload.
 */
const port = parentPort!;
const { format } = workerData as { format: ImportFormat };
const input = new PassThrough();
port.on('message', (message: { chunk?: Uint8Array; end?: true }) => {
  if (message.chunk) input.write(message.chunk);
  if (message.end) input.end();
});
try {
  port.postMessage({ parsed: await parseImportFile(input, format) });
} catch (error) {
  if (!(error instanceof AppError)) throw error;
  port.postMessage({
    refused: { code: error.code, status: error.status, params: error.params, message: error.options.message },
  });
}
