import type { LogoConfig, Me } from '@kilowatch/contract';
import { ROLE_ADMIN } from '@kilowatch/contract';
import { create } from 'zustand';
import { tokenStorage } from './storage.ts';

export type { LogoConfig };

export interface SessionState {
  token: string | null;
  refreshToken: string | null;
  user: Me | null;
  /** Roles of the current user; empty until /api/auth/me answered (the guard's "roles loaded"). */
  roles: string[];
  /** Console paths the user's roles grant (`routes` of /api/auth/me); a grant covers its subtree. */
  routes: string[];
  logo: LogoConfig;
  setTokens(token: string, refreshToken: string): void;
  setUser(user: Me): void;
  setLogo(logo: LogoConfig): void;
  /** Ends the session: tokens, user, roles and the session caches. */
  clear(): void;
}

export const useSession = create<SessionState>((set) => ({
  token: tokenStorage.get(),
  refreshToken: tokenStorage.getRefresh(),
  user: null,
  roles: [],
  routes: [],
  // Empty img: the sidebar shows the built-in favicon until the logo config says otherwise.
  logo: { img: '', show: true },
  setTokens(token, refreshToken) {
    tokenStorage.set(token, refreshToken);
    set({ token, refreshToken });
  },
  setUser: (user) => set({ user, roles: user.roles, routes: grantedRoutes(user) }),
  setLogo: (logo) => set({ logo }),
  clear() {
    tokenStorage.clear();
    set({ token: null, refreshToken: null, user: null, roles: [], routes: [] });
  },
}));

/** `routes` of /api/auth/me, read defensively: older servers do not send it. */
function grantedRoutes(user: Me): string[] {
  const routes: unknown = (user as Me & { routes?: unknown }).routes;
  return Array.isArray(routes) ? routes.filter((r): r is string => typeof r === 'string') : [];
}

export const isAdmin = (roles: readonly string[]) => roles.includes(ROLE_ADMIN);

/**
 * Whether a granted path covers `path`: the path itself or one of its ancestors.
 * @example isGranted(['/sys_management'], '/sys_management/user') // true
 */
export const isGranted = (grants: readonly string[], path: string) =>
  grants.some((g) => path === g || path.startsWith(`${g}/`));

/** Spec §4: admins pass; a route without roles is open; otherwise the user must share one. */
export const canAccess = (userRoles: readonly string[], routeRoles?: readonly string[]) =>
  isAdmin(userRoles) || !routeRoles?.length || routeRoles.some((r) => userRoles.includes(r));

/** {@link canAccess}, or the route's path is granted to the user's roles (`routes` of /api/auth/me). */
export const canAccessRoute = (
  userRoles: readonly string[],
  grants: readonly string[],
  route: { path: string; roles?: readonly string[] },
) => canAccess(userRoles, route.roles) || isGranted(grants, route.path);

/** The address to come back to after logging in again: the path in the current hash. */
export const currentHashPath = () => window.location.hash.replace(/^#/, '') || '/';

/**
 * Clears the session and sends the user to the login page with `redirectUrl` (spec §2),
 * unless they are already there.
 */
export function endSessionAndGoToLogin() {
  const back = currentHashPath();
  useSession.getState().clear();
  if (back.startsWith('/login')) return;
  window.location.hash = `#/login?redirectUrl=${encodeURIComponent(back)}`;
}
