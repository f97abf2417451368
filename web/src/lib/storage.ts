import { UNIT_CACHE_KEY } from '@kilowatch/contract';
import Cookies from 'js-cookie';

/** Tokens live in local storage (spec §9); UI preferences in cookies. */
const TOKEN_KEY = 'token';
const REFRESH_KEY = 'refreshToken';

export const tokenStorage = {
  get: () => localStorage.getItem(TOKEN_KEY),
  getRefresh: () => localStorage.getItem(REFRESH_KEY),
  set(token: string, refreshToken: string) {
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(REFRESH_KEY, refreshToken);
  },
  /** Removes the tokens and the caches that belong to a session (the unit list). */
  clear() {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(REFRESH_KEY);
    localStorage.removeItem(UNIT_CACHE_KEY);
  },
};

export type CookieKey = 'sidebarStatus' | 'language' | 'size' | 'theme';

export const cookieStorage = {
  get: (key: CookieKey) => Cookies.get(key),
  set: (key: CookieKey, value: string) => Cookies.set(key, value, { expires: 365, sameSite: 'Lax' }),
};
