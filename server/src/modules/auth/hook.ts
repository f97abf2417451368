import { ROLE_ADMIN } from '@kilowatch/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import type { AuthService, AuthUser } from './service.ts';
import type { StreamTickets } from './tickets.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a token (login, health…). */
    public?: boolean;
    /** The caller needs one of these roles (admin passes every check). */
    roles?: readonly string[];
    /**
     * The console route (contract/src/routes.ts) this call serves, e.g. '/device_management/nodes'.
     * Calls behind an admin-only route declare it; a non-admin passes only when one of their roles
     * grants that route (spec §6). Calls without it are open to every logged-in user.
     */
    resource?: string;
    /** Also accept the access token as `?token=` (spec §7: GET /api/auth/me). */
    queryToken?: boolean;
    /**
     * Also accept a stream ticket as `?ticket=` (POST /api/query/live/ticket): for EventSource,
     * which cannot send headers, without putting the long-lived access token in a URL.
     */
    streamTicket?: boolean;
  }
  interface FastifyRequest {
    /** The authenticated caller; set on every non-public /api route. */
    user: AuthUser | null;
    /** The access token the caller was authenticated with (a ticket's stands behind it). */
    accessToken: string | null;
  }
}

/**
 * Whether `user` may call a route declaring `roles` and/or `resource`. Admin passes every check
 * (spec §6); otherwise the user needs one of the roles and a grant of the resource. The one
 * place authorization lives.
 */
export function authorize(
  user: AuthUser,
  { roles, resource }: { roles?: readonly string[]; resource?: string },
): boolean {
  if (user.roles.includes(ROLE_ADMIN)) return true;
  if (roles?.length && !roles.some((role) => user.roles.includes(role))) return false;
  return resource === undefined || user.grants.includes(resource);
}

const bearer = (header: string | string[] | undefined): string | undefined => {
  const value = Array.isArray(header) ? header[0] : header;
  const match = value?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
};

const queryToken = (request: FastifyRequest): string | undefined => {
  const { token } = request.query as { token?: unknown };
  return typeof token === 'string' && token ? token : undefined;
};

/** The access token behind the request's `?ticket=`; a ticket that is unknown, used or expired is refused. */
const redeemTicket = async (
  request: FastifyRequest,
  tickets: Pick<StreamTickets, 'redeem'>,
): Promise<string | undefined> => {
  const { ticket } = request.query as { ticket?: unknown };
  if (typeof ticket !== 'string' || !ticket) return undefined;
  const token = await tickets.redeem(ticket);
  if (!token) throw new AppError('UNAUTHORIZED', 401, {}, { message: 'auth.badStreamTicket' });
  return token;
};

/**
 * The access token a request carries: the header, else `?token=` where the route accepts it. The
 * header wins: it is what the console keeps fresh (it refreshes before every call), while a query
 * token may be a stale copy taken before that refresh.
 */
function requestToken(request: FastifyRequest): string | undefined {
  return (
    bearer(request.headers['x-authorization']) ??
    (request.routeOptions.config.queryToken ? queryToken(request) : undefined)
  );
}

/**
 * Guards every route registered in `api` (the /api subtree) unless it is marked
 * `config: { public: true }`: the `x-Authorization: Bearer <token>` header (spec §7) must
 * carry a valid access token of a user who may log in, and that user must pass `authorize`.
 */
export function authenticate(
  api: FastifyInstance,
  service: Pick<AuthService, 'authenticate'>,
  tickets: Pick<StreamTickets, 'redeem'>,
): void {
  api.decorateRequest('user', null);
  api.decorateRequest('accessToken', null);
  api.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    if (config.public) return;
    const token =
      requestToken(request) ?? (config.streamTicket ? await redeemTicket(request, tickets) : undefined);
    if (!token) throw new AppError('UNAUTHORIZED', 401);
    request.user = await service.authenticate(token);
    request.accessToken = token;
    if (!authorize(request.user, config)) throw new AppError('FORBIDDEN', 403);
  });
}
