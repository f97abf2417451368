import type { Me } from '@kilowatch/contract';
import { ROLE_ADMIN } from '@kilowatch/contract';
import { create } from 'zustand';
import { tokenStorage } from './storage.ts';

export interface LogoConfig {
  img: string;
  show: boolean;
}

export interface SessionState {
  token: string | null;
  refreshToken: string | null;
  user: Me | null;
  /** Roles of the current user; empty until /api/auth/me answered (the guard's "roles loaded"). */
  roles: string[];
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
  logo: { img: './favicon.svg', show: true },
  setTokens(token, refreshToken) {
    tokenStorage.set(token, refreshToken);
    set({ token, refreshToken });
  },
  setUser: (user) => set({ user, roles: user.roles }),
  setLogo: (logo) => set({ logo }),
  clear() {
    tokenStorage.clear();
    set({ token: null, refreshToken: null, user: null, roles: [] });
  },
}));

export const isAdmin = (roles: readonly string[]) => roles.includes(ROLE_ADMIN);

/** Spec §4: admins pass; a route without roles is open; otherwise the user must share one. */
export const canAccess = (userRoles: readonly string[], routeRoles?: readonly string[]) =>
  isAdmin(userRoles) || !routeRoles?.length || routeRoles.some((r) => userRoles.includes(r));

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
