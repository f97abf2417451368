import { findRoute, routeAllowed } from '../config/routes.ts';
import { canAccessRoute } from '../lib/session.ts';

/** Spec §4: the only routes reachable without a token. */
export const WHITE_LIST = ['/login', '/auth-redirect'];

export type GuardDecision = { kind: 'allow' } | { kind: 'redirect'; to: string } | { kind: 'loadUser' };

export interface GuardInput {
  /** Path without query, e.g. /sys_management/user */
  path: string;
  /** Path with query, kept in `redirect` */
  fullPath: string;
  hasToken: boolean;
  rolesLoaded: boolean;
  roles: readonly string[];
  /** Paths the user's roles grant (`routes` of /api/auth/me); absent means none. */
  grants?: readonly string[];
}

/**
 * The route guard of spec §4 as a pure decision; `runGuard` performs the side effects. A route is
 * allowed for admins, when it declares no roles, when the user shares one, or when its path (or,
 * for a parent, a child's) is granted.
 */
export function decide({
  path,
  fullPath,
  hasToken,
  rolesLoaded,
  roles,
  grants = [],
}: GuardInput): GuardDecision {
  if (!hasToken) {
    return WHITE_LIST.includes(path)
      ? { kind: 'allow' }
      : { kind: 'redirect', to: `/login?redirect=${encodeURIComponent(fullPath)}` };
  }
  if (path === '/login') return { kind: 'redirect', to: '/' };
  if (WHITE_LIST.includes(path) || path === '/404' || path === '/401') return { kind: 'allow' };
  if (!rolesLoaded) return { kind: 'loadUser' };
  const route = findRoute(path);
  if (route && !routeAllowed(route, (_, r) => canAccessRoute(roles, grants, r)))
    return { kind: 'redirect', to: '/401?noGoBack=true' };
  return { kind: 'allow' };
}
