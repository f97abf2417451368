import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
/** Headers a reverse proxy adds: a request carrying one came from elsewhere, whatever its socket. */
const FORWARDED = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

const sameToken = (given: string, expected: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * Who may use the operator endpoints (GET /metrics, POST /api/ops/backup): with OPS_TOKEN set,
 * whoever sends it as `Authorization: Bearer <token>`; without it, only a caller on this machine:
 * the socket's peer is loopback and no proxy header says the request was forwarded (a proxy on the
 * same host would otherwise let the whole network in). Throws 401/403 as AppError.
 */
export function checkOpsAccess(request: FastifyRequest, token: string | undefined): void {
  if (token !== undefined) {
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (!given) throw new AppError('UNAUTHORIZED', 401, {}, { message: 'ops.tokenMissing' });
    if (!sameToken(given, token)) throw new AppError('FORBIDDEN', 403, {}, { message: 'ops.forbidden' });
    return;
  }
  const peer = request.socket.remoteAddress ?? '';
  const forwarded = FORWARDED.some((name) => request.headers[name] !== undefined);
  if (!LOOPBACK.has(peer) || forwarded) {
    throw new AppError('FORBIDDEN', 403, {}, { message: 'ops.loopbackOnly' });
  }
}
