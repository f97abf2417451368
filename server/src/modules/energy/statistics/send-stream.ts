import { PassThrough } from 'node:stream';
import type { ExportFormat } from '@kilowatch/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentTypeOf, type TableWriter, tableWriter } from '../sheets.ts';

/**
 * Answers a file that `write` streams. Everything that can fail for a reason the user should read
 * (bad range, unknown thing, no metric, unknown tariff) is checked before this is called, so it
 * still answers the normal JSON error; a failure after the first byte can only cut the download
 * short (the console saves nothing then, docs/statistics.md#exports).
 */
export function sendStream(
  request: FastifyRequest,
  reply: FastifyReply,
  file: { format: ExportFormat; filename: string; rows: number },
  write: (out: TableWriter) => Promise<void>,
) {
  const body = new PassThrough();
  write(tableWriter(file.format, body)).catch((error: unknown) => {
    if (body.destroyed) return;
    request.log.error({ err: error }, 'export failed after its first byte: the download is cut short');
    body.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return reply
    .header('content-type', contentTypeOf(file.format))
    .header(
      'content-disposition',
      `attachment; filename="${file.filename.replace(/[^\w.-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
    )
    .header('x-export-rows', String(file.rows))
    .header('access-control-expose-headers', 'content-disposition, x-export-rows')
    .send(body);
}
