import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';

const MULTIPART_FORM = /^\s*multipart\/form-data\s*(;|$)/i;
const BOUNDARY = /;\s*boundary\s*=\s*("[^"]+"|[^\s;"]+)/i;

/**
 * A multipart/form-data request without a boundary cannot be split into parts; the multipart
 * parser throws on it deep inside the handler (a 500). Refused here, before any body is read.
 */
export function multipartBoundary(app: FastifyInstance): void {
  app.addHook('preParsing', async (request) => {
    const type = request.headers['content-type'];
    if (type && MULTIPART_FORM.test(type) && !BOUNDARY.test(type)) {
      throw new AppError('BAD_REQUEST', 400, {}, { message: 'MULTIPART_NO_BOUNDARY' });
    }
  });
}
