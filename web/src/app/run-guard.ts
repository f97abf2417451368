import { redirect } from 'react-router';
import { isCanceled } from '../lib/http.ts';
import { t } from '../lib/i18n.ts';
import { isTokenExpired } from '../lib/jwt.ts';
import { notify } from '../lib/notify.ts';
import { useSession } from '../lib/session.ts';
import { decide } from './guard.ts';

/** Whether a usable session exists; an expired one (both tokens) is cleared here (spec §4). */
function hasSession(): boolean {
  const { token, refreshToken, clear } = useSession.getState();
  if (!token) return false;
  if (isTokenExpired(token) && isTokenExpired(refreshToken)) {
    clear();
    return false;
  }
  return true;
}

/**
 * Runs before every navigation (the root route's loader). Loads the user when roles are
 * missing, then decides again; a failed load logs out, shows the error and goes to `/`.
 * `signal` is the navigation's: when the router abandons it, its user load is cancelled too.
 */
export async function runGuard(url: URL, signal?: AbortSignal): Promise<null> {
  const path = url.pathname;
  const fullPath = `${url.pathname}${url.search}`;
  for (;;) {
    const session = useSession.getState();
    const decision = decide({
      path,
      fullPath,
      hasToken: hasSession(),
      rolesLoaded: session.roles.length > 0,
      roles: session.roles,
      grants: session.routes,
    });
    if (decision.kind === 'allow') return null;
    if (decision.kind === 'redirect') throw redirect(decision.to);
    try {
      // Loaded here, not with the login page, which has no session to load.
      const { getMe } = await import('../api/auth.ts');
      const me = await getMe(signal);
      if (me.userLevel == null || me.roles.length === 0) throw new Error(t('guard.verifyFailed'));
      useSession.getState().setUser(me);
    } catch (e) {
      // Cancelled: a newer navigation asked for the user again (or the router left this one). The
      // router drops this navigation's result, and nothing failed: no toast, and no logout.
      if (isCanceled(e)) throw e;
      useSession.getState().clear();
      notify.error((e instanceof Error && e.message) || t('guard.verifyFailed'));
      throw redirect('/');
    }
  }
}
