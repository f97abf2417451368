import type { Me } from '@kilowatch/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../lib/http.ts';
import i18n from '../lib/i18n.ts';
import { setNotifier } from '../lib/notify.ts';
import { useSession } from '../lib/session.ts';
import { decide, type GuardInput, WHITE_LIST } from './guard.ts';
import { runGuard } from './run-guard.ts';

const input = (over: Partial<GuardInput>): GuardInput => ({
  path: '/home',
  fullPath: '/home',
  hasToken: true,
  rolesLoaded: true,
  roles: ['editor'],
  ...over,
});

describe('decide (spec §4)', () => {
  it('without a token, /login and /auth-redirect are allowed', () => {
    expect(WHITE_LIST).toEqual(['/login', '/auth-redirect']);
    for (const path of WHITE_LIST) {
      expect(decide(input({ path, fullPath: path, hasToken: false, rolesLoaded: false, roles: [] }))).toEqual(
        {
          kind: 'allow',
        },
      );
    }
  });

  it('without a token, anything else goes to /login?redirect=<encoded full path with query>', () => {
    expect(
      decide(
        input({
          path: '/alarm_center/alarm_history',
          fullPath: '/alarm_center/alarm_history?id=7&x=a b',
          hasToken: false,
          rolesLoaded: false,
          roles: [],
        }),
      ),
    ).toEqual({
      kind: 'redirect',
      to: `/login?redirect=${encodeURIComponent('/alarm_center/alarm_history?id=7&x=a b')}`,
    });
    expect(
      decide(input({ path: '/', fullPath: '/', hasToken: false, rolesLoaded: false, roles: [] })),
    ).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2F',
    });
  });

  it('without a token even stale roles do not open a route', () => {
    expect(decide(input({ path: '/home', fullPath: '/home', hasToken: false, roles: ['admin'] }))).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Fhome',
    });
  });

  it('with a token, /login goes to /', () => {
    expect(decide(input({ path: '/login', fullPath: '/login?redirect=%2Fhome' }))).toEqual({
      kind: 'redirect',
      to: '/',
    });
    expect(decide(input({ path: '/login', fullPath: '/login', rolesLoaded: false, roles: [] }))).toEqual({
      kind: 'redirect',
      to: '/',
    });
  });

  it('with a token and no roles loaded, the user is loaded', () => {
    expect(decide(input({ path: '/home', rolesLoaded: false, roles: [] }))).toEqual({ kind: 'loadUser' });
    expect(decide(input({ path: '/sys_management/user', rolesLoaded: false, roles: [] }))).toEqual({
      kind: 'loadUser',
    });
  });

  it('an admin passes admin routes', () => {
    for (const path of [
      '/sys_management/user',
      '/device_management/nodes',
      '/sys_config',
      '/sys_management',
    ]) {
      expect(decide(input({ path, fullPath: path, roles: ['admin'] }))).toEqual({ kind: 'allow' });
    }
  });

  it('an editor at an admin route goes to /401?noGoBack=true', () => {
    for (const path of ['/sys_management/user', '/device_management/category', '/sys_config']) {
      expect(decide(input({ path, fullPath: path, roles: ['editor'] }))).toEqual({
        kind: 'redirect',
        to: '/401?noGoBack=true',
      });
    }
  });

  it('an editor reaches routes that declare no roles', () => {
    for (const path of [
      '/home',
      '/energy_monitor/realtime',
      '/alarm_center/alarm_history',
      '/home/chartdetail',
    ]) {
      expect(decide(input({ path, fullPath: path, roles: ['editor'] }))).toEqual({ kind: 'allow' });
    }
  });

  it('an unknown path with a token is allowed by the guard (the router sends it to /404)', () => {
    expect(decide(input({ path: '/no/such/page', fullPath: '/no/such/page', roles: ['editor'] }))).toEqual({
      kind: 'allow',
    });
  });
});

// ---------------------------------------------------------------------------------------------

const b64url = (value: unknown) =>
  btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const jwt = (expSeconds: number, sub = 'u') =>
  `${b64url({ alg: 'HS256' })}.${b64url({ sub, exp: expSeconds })}.x`;
const nowS = () => Math.floor(Date.now() / 1000);

/** A /api/auth/me answer; cast so the helper keeps compiling whichever optional fields Me grows. */
const me = (over: Partial<Me> = {}): Me =>
  ({
    id: 1,
    username: 'admin',
    name: '管理员',
    avatar: '',
    introduction: '',
    roles: ['admin'],
    routes: [],
    userLevel: 1,
    setting: {},
    ...over,
  }) as Me;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

let toasts: { level: string; text: string }[];
let fetchMock: ReturnType<typeof vi.fn>;

const stubFetch = (answer: (url: string) => Response) => {
  fetchMock = vi.fn(async (input: RequestInfo | URL) => answer(String(input)));
  vi.stubGlobal('fetch', fetchMock);
};

/** Runs the guard and returns the redirect Response it throws (or null when it allows). */
async function guardAt(path: string, signal?: AbortSignal): Promise<Response | null> {
  try {
    return await runGuard(new URL(path, 'http://localhost'), signal);
  } catch (e) {
    if (e instanceof Response) return e;
    throw e;
  }
}

describe('runGuard', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('zh');
    toasts = [];
    setNotifier({
      success: (text) => toasts.push({ level: 'success', text }),
      warning: (text) => toasts.push({ level: 'warning', text }),
      error: (text) => toasts.push({ level: 'error', text }),
    });
    useSession.setState({ token: null, refreshToken: null, user: null, roles: [] });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const signIn = (token = jwt(nowS() + 3600, 'access'), refresh = jwt(nowS() + 7200, 'refresh')) => {
    useSession.getState().setTokens(token, refresh);
    localStorage.setItem('unitAll', '[]');
    return token;
  };

  it('loads the user, then allows', async () => {
    const token = signIn();
    stubFetch(() => json({ data: me() }));
    await expect(guardAt('/sys_management/user')).resolves.toBeNull();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const url = new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://localhost');
    expect(url.pathname).toBe('/api/auth/me');
    expect(url.searchParams.get('token')).toBe(token);
    expect(useSession.getState().roles).toEqual(['admin']);
    expect(useSession.getState().user?.name).toBe('管理员');
    expect(toasts).toEqual([]);
  });

  it('after a reload with an expired access token: refreshes, then asks /api/auth/me with the new token', async () => {
    signIn(jwt(nowS() - 60, 'old-access'), jwt(nowS() + 7200, 'refresh'));
    const fresh = jwt(nowS() + 1800, 'new-access');
    const sentTokens: (string | null)[] = [];
    fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/auth/token') {
        return json({ data: { token: fresh, refreshToken: jwt(nowS() + 7200, 'refresh-2') } });
      }
      sentTokens.push(
        url.searchParams.get('token'),
        (init.headers as Record<string, string>)['x-Authorization'] ?? null,
      );
      return json({ data: me() });
    });
    vi.stubGlobal('fetch', fetchMock);
    await expect(guardAt('/home')).resolves.toBeNull();
    expect(sentTokens).toEqual([fresh, `Bearer ${fresh}`]);
    expect(useSession.getState().token).toBe(fresh);
    expect(useSession.getState().roles).toEqual(['admin']);
  });

  it('loads an editor, then sends them from an admin route to /401?noGoBack=true', async () => {
    signIn();
    stubFetch(() => json({ data: me({ roles: ['editor'], userLevel: 2 }) }));
    const response = await guardAt('/sys_management/user');
    expect(response?.status).toBe(302);
    expect(response?.headers.get('Location')).toBe('/401?noGoBack=true');
    expect(useSession.getState().roles).toEqual(['editor']);
  });

  it('does not call /api/auth/me again once roles are loaded', async () => {
    signIn();
    useSession.setState({ roles: ['editor'] });
    stubFetch(() => json({ data: me() }));
    await expect(guardAt('/home')).resolves.toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('me failing → session cleared, the server message toasted, redirect to /', async () => {
    signIn();
    stubFetch(() => json({ code: 'USER_DISABLED', message: '账号已停用' }, 403));
    const response = await guardAt('/home');
    expect(response?.status).toBe(302);
    expect(response?.headers.get('Location')).toBe('/');
    expect(toasts).toEqual([{ level: 'error', text: '账号已停用' }]);
    expect(useSession.getState()).toMatchObject({ token: null, refreshToken: null, roles: [], user: null });
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
    expect(localStorage.getItem('unitAll')).toBeNull();
  });

  it('me answering without userLevel → cleared, fallback text (zh)', async () => {
    signIn();
    stubFetch(() => json({ data: me({ userLevel: null, roles: [] }) }));
    const response = await guardAt('/home');
    expect(response?.status).toBe(302);
    expect(response?.headers.get('Location')).toBe('/');
    expect(toasts).toEqual([
      { level: 'error', text: i18n.getResource('zh', 'translation', 'guard.verifyFailed') },
    ]);
    expect(toasts[0]?.text).toBe('Verification failed, please login again');
    expect(useSession.getState().token).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('me answering without userLevel → cleared, fallback text (en)', async () => {
    await i18n.changeLanguage('en');
    signIn();
    stubFetch(() => json({ data: me({ userLevel: null, roles: ['editor'] }) }));
    const response = await guardAt('/analysis/kpi');
    expect(response?.headers.get('Location')).toBe('/');
    expect(toasts).toEqual([{ level: 'error', text: 'Verification failed, please login again' }]);
    expect(useSession.getState().roles).toEqual([]);
  });

  it('an expired session (both tokens expired) is cleared and sent to login', async () => {
    signIn(jwt(nowS() - 60), jwt(nowS() - 30));
    stubFetch(() => json({ data: me() }));
    const response = await guardAt('/energy_monitor/history?from=1');
    expect(response?.status).toBe(302);
    expect(response?.headers.get('Location')).toBe(
      `/login?redirect=${encodeURIComponent('/energy_monitor/history?from=1')}`,
    );
    expect(fetchMock).not.toHaveBeenCalled();
    expect(useSession.getState().token).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
  });

  it('without a token, a protected path goes to login and /login is allowed', async () => {
    stubFetch(() => json({ data: me() }));
    const response = await guardAt('/home');
    expect(response?.headers.get('Location')).toBe('/login?redirect=%2Fhome');
    await expect(guardAt('/login')).resolves.toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  /** A fetch that answers /api/auth/me only when `release` is called, and rejects like a browser when aborted. */
  const stubSlowMe = () => {
    const waiting: (() => void)[] = [];
    fetchMock = vi.fn(
      (_input: RequestInfo | URL, init: RequestInit = {}) =>
        new Promise<Response>((resolve, reject) => {
          const signal = init.signal;
          if (signal?.aborted) return reject(new DOMException('aborted', 'AbortError'));
          signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), {
            once: true,
          });
          waiting.push(() => resolve(json({ data: me() })));
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    return {
      release: () => {
        for (const answer of waiting.splice(0)) answer();
      },
    };
  };

  it('right after login, a second navigation supersedes the first one’s me call: no toast, the session kept', async () => {
    const token = signIn();
    const slow = stubSlowMe();
    const first = guardAt('/home').catch((e: unknown) => e);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1), { timeout: 5_000 });
    // The user leaves for another page while the first navigation still waits for /api/auth/me.
    const second = guardAt('/alarm_center/alarm_rule');
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2), { timeout: 5_000 });
    slow.release();
    await expect(second).resolves.toBeNull();
    const superseded = await first;
    // The first navigation is dropped by the router; it is not sent to `/` and the user stays logged in.
    expect(superseded).toBeInstanceOf(HttpError);
    expect((superseded as HttpError).kind).toBe('canceled');
    expect(toasts).toEqual([]);
    expect(useSession.getState().token).toBe(token);
    expect(useSession.getState().roles).toEqual(['admin']);
  });

  it('a navigation the router abandons cancels its me call without a toast or a logout', async () => {
    const token = signIn();
    stubSlowMe();
    const navigation = new AbortController();
    const guarded = guardAt('/home', navigation.signal).catch((e: unknown) => e);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1), { timeout: 5_000 });
    navigation.abort();
    const result = await guarded;
    expect(result).toBeInstanceOf(HttpError);
    expect((result as HttpError).kind).toBe('canceled');
    expect((fetchMock.mock.calls[0]?.[1] as RequestInit | undefined)?.signal?.aborted).toBe(true);
    expect(toasts).toEqual([]);
    expect(useSession.getState().token).toBe(token);
  });

  it('with a valid session, /login redirects to /', async () => {
    signIn();
    stubFetch(() => json({ data: me() }));
    const response = await guardAt('/login');
    expect(response?.headers.get('Location')).toBe('/');
  });
});
