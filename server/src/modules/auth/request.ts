import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import type { AuthUser } from './service.ts';

/**
 * The caller of a non-public route (set by the authenticate hook in modules/auth/hook.ts);
 * throws when called on a public one by mistake.
 */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new AppError('UNAUTHORIZED', 401);
  return request.user;
}
