import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The http module keeps a pending-call map and a shared refresh promise at module level, and the
 * session and loading stores are module singletons: every test loads fresh copies.
 */
type HttpModule = typeof import('./http.ts');
type SessionModule = typeof import('./session.ts');
type LoadingModule = typeof import('./loading.ts');
type I18nModule = typeof import('./i18n.ts');

let http: HttpModule;
let session: SessionModule;
let loading: LoadingModule;
let i18n: I18nModule;

type Toast = { level: 'success' | 'warning' | 'error'; text: string };
let toasts: Toast[];

const b64url = (value: unknown) =>
  btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const jwt = (expSeconds: number, sub = 'u1') =>
  `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub, exp: expSeconds })}.x`;
const nowS = () => Math.floor(Date.now() / 1000);
const validToken = (sub = 'access') => jwt(nowS() + 3600, sub);
const expiredToken = (sub = 'access') => jwt(nowS() - 60, sub);

const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'Content-Type': 'application/json', ...(init.headers as Record<string, string>) },
  });

type FetchCall = { url: string; init: RequestInit };
type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

let calls: FetchCall[];
let fetchMock: ReturnType<typeof vi.fn>;

/** A fetch that records calls, answers with `handler` and rejects like a browser when aborted. */
function stubFetch(handler: Handler) {
  fetchMock = vi.fn((input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    calls.push({ url, init });
    const signal = init.signal;
    return new Promise<Response>((resolve, reject) => {
      const abort = () => reject(signal?.reason ?? new DOMException('aborted', 'AbortError'));
      if (signal?.aborted) return abort();
      signal?.addEventListener('abort', abort, { once: true });
      Promise.resolve()
        .then(() => handler(url, init))
        .then(resolve, reject);
    });
  });
  vi.stubGlobal('fetch', fetchMock);
}

/** A fetch that never answers (until aborted). */
const hang: Handler = () => new Promise<Response>(() => {});

const headerOf = (call: FetchCall | undefined, name: string) =>
  (call?.init.headers as Record<string, string> | undefined)?.[name];

/** Tracks whether a promise settled, without letting its rejection go unhandled. */
function track<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => {
      state.settled = true;
      state.value = value;
    },
    (error: unknown) => {
      state.settled = true;
      state.error = error;
    },
  );
  return state;
}

const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

beforeEach(async () => {
  vi.resetModules();
  localStorage.clear();
  window.location.hash = '';
  http = await import('./http.ts');
  session = await import('./session.ts');
  loading = await import('./loading.ts');
  i18n = await import('./i18n.ts');
  const notify = await import('./notify.ts');
  await i18n.default.changeLanguage('zh');
  toasts = [];
  notify.setNotifier({
    success: (text) => toasts.push({ level: 'success', text }),
    warning: (text) => toasts.push({ level: 'warning', text }),
    error: (text) => toasts.push({ level: 'error', text }),
  });
  calls = [];
  session.useSession.setState({ token: null, refreshToken: null, user: null, roles: [] });
  loading.useLoadingStore.setState({ pending: 0 });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const signIn = (token = validToken(), refreshToken = validToken('refresh')) => {
  session.useSession.getState().setTokens(token, refreshToken);
  return { token, refreshToken };
};

describe('headers', () => {
  it('sends x-Authorization: Bearer <token> and a JSON content type', async () => {
    const { token } = signIn();
    stubFetch(() => json({ data: { id: 1 } }));
    await http.http.post('/api/thing/categories', { name: 'pump' });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('/api/thing/categories');
    expect(calls[0]?.init.method).toBe('POST');
    expect(headerOf(calls[0], 'x-Authorization')).toBe(`Bearer ${token}`);
    expect(headerOf(calls[0], 'Content-Type')).toBe('application/json');
    expect(calls[0]?.init.body).toBe(JSON.stringify({ name: 'pump' }));
  });

  it('sends the bearer token and asks for JSON on a GET too', async () => {
    const { token } = signIn();
    stubFetch(() => json({ data: [] }));
    await http.http.get('/api/regions');
    expect(headerOf(calls[0], 'x-Authorization')).toBe(`Bearer ${token}`);
    expect(headerOf(calls[0], 'Accept')).toBe('application/json');
  });

  it('sends no token on anonymous calls', async () => {
    signIn();
    stubFetch(() => json({ data: { key: 'k' } }));
    await http.http.get('/api/auth/login-key', undefined, { anonymous: true });
    expect(headerOf(calls[0], 'x-Authorization')).toBeUndefined();
  });

  it('Accept-Language follows the i18n language', async () => {
    signIn();
    stubFetch(() => json({ data: null }));
    await http.http.get('/api/regions');
    expect(headerOf(calls[0], 'Accept-Language')).toBe('zh');
    await i18n.default.changeLanguage('es');
    await http.http.get('/api/regions');
    expect(headerOf(calls[1], 'Accept-Language')).toBe('es');
    await i18n.default.changeLanguage('en');
    await http.http.get('/api/regions');
    expect(headerOf(calls[2], 'Accept-Language')).toBe('en');
  });
});

describe('body', () => {
  it('unwraps data', async () => {
    signIn();
    stubFetch(() => json({ data: { list: [1, 2], total: 2 }, extra: true }));
    await expect(http.http.get('/api/units')).resolves.toEqual({ list: [1, 2], total: 2 });
  });

  it('raw returns the whole body', async () => {
    stubFetch(() => json({ token: 't', refreshToken: 'r' }));
    const body = await http.request('/api/auth/login', {
      method: 'POST',
      anonymous: true,
      raw: true,
      data: {},
    });
    expect(body).toEqual({ token: 't', refreshToken: 'r' });
  });

  it('raw keeps a data field in place', async () => {
    signIn();
    stubFetch(() => json({ data: 1, seq: 9 }));
    await expect(http.request('/api/query/data', { raw: true })).resolves.toEqual({ data: 1, seq: 9 });
  });
});

describe('loading counter', () => {
  it('goes up during a call and back to 0', async () => {
    signIn();
    const answers = new Map<string, (r: Response) => void>();
    stubFetch((url) => new Promise<Response>((resolve) => answers.set(url, resolve)));
    const p1 = http.http.get('/api/regions');
    const p2 = http.http.get('/api/units');
    expect(loading.useLoadingStore.getState().pending).toBe(2);
    await flush();
    expect(answers.size).toBe(2);
    answers.get('/api/regions')?.(json({ data: 1 }));
    await expect(p1).resolves.toBe(1);
    expect(loading.useLoadingStore.getState().pending).toBe(1);
    answers.get('/api/units')?.(json({ data: 2 }));
    await expect(p2).resolves.toBe(2);
    expect(loading.useLoadingStore.getState().pending).toBe(0);
  });

  it('goes back to 0 after a failure', async () => {
    signIn();
    stubFetch(() => new Response(null, { status: 500 }));
    const p = http.http.get('/api/regions');
    expect(loading.useLoadingStore.getState().pending).toBe(1);
    await expect(p).rejects.toBeInstanceOf(http.HttpError);
    expect(loading.useLoadingStore.getState().pending).toBe(0);
  });

  it('silent calls never raise it', async () => {
    signIn();
    const seen: number[] = [];
    const unsubscribe = loading.useLoadingStore.subscribe((s) => seen.push(s.pending));
    stubFetch(() => {
      seen.push(loading.useLoadingStore.getState().pending);
      return json({ data: { list: [] } });
    });
    await http.http.get('/api/alarm/history', { state: 1 }, { silent: true });
    unsubscribe();
    expect(calls).toHaveLength(1);
    expect(seen.every((n) => n === 0)).toBe(true);
    expect(loading.useLoadingStore.getState().pending).toBe(0);
  });
});

describe('duplicate calls', () => {
  it('a second identical call aborts the first, which rejects as canceled with no toast', async () => {
    signIn();
    let n = 0;
    stubFetch(() => {
      n += 1;
      return n === 1 ? hang('', {}) : json({ data: 'second' });
    });
    const first = http.http.get('/api/regions', { page: 1 });
    await flush();
    const second = http.http.get('/api/regions', { page: 1 });
    const firstError = await first.catch((e: unknown) => e);
    expect(http.isCanceled(firstError)).toBe(true);
    // Whoever shows it, the text is the user's language, never the English "canceled".
    expect((firstError as Error).message).toBe('请求已取消');
    await expect(second).resolves.toBe('second');
    expect(calls).toHaveLength(2);
    expect(calls[0]?.init.signal?.aborted).toBe(true);
    expect(calls[1]?.init.signal?.aborted).toBe(false);
    expect(toasts).toEqual([]);
    expect(loading.useLoadingStore.getState().pending).toBe(0);
  });

  it('a call with another query or method is not a duplicate', async () => {
    signIn();
    stubFetch((url, init) => json({ data: `${init.method} ${url}` }));
    const results = await Promise.all([
      http.http.get('/api/regions', { page: 1 }),
      http.http.get('/api/regions', { page: 2 }),
      http.http.delete('/api/regions', { page: 1 }),
    ]);
    expect(results).toEqual([
      'GET /api/regions?page=1',
      'GET /api/regions?page=2',
      'DELETE /api/regions?page=1',
    ]);
  });

  it('a signal already aborted cancels the call before it leaves', async () => {
    signIn();
    stubFetch(() => json({ data: 'sent' }));
    const error = await http.http
      .get('/api/regions', undefined, { signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(http.isCanceled(error)).toBe(true);
    expect(calls[0]?.init.signal?.aborted ?? true).toBe(true);
    expect(toasts).toEqual([]);
  });

  it('allowDuplicate does not cancel', async () => {
    signIn();
    let n = 0;
    stubFetch(async () => {
      n += 1;
      const mine = n;
      await flush();
      return json({ data: mine });
    });
    const first = http.http.get('/api/regions', undefined, { allowDuplicate: true });
    await flush();
    const second = http.http.get('/api/regions', undefined, { allowDuplicate: true });
    await expect(Promise.all([first, second])).resolves.toEqual([1, 2]);
    expect(calls.every((c) => c.init.signal?.aborted === false)).toBe(true);
    expect(toasts).toEqual([]);
  });
});

/**
 * Headers arrive at once, the body never finishes: like a browser, aborting the request's signal
 * errors the body stream mid-read.
 */
const slowBody: Handler = (_url, init) => {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"data":['));
      init.signal?.addEventListener(
        'abort',
        () => controller.error(init.signal?.reason ?? new DOMException('aborted', 'AbortError')),
        { once: true },
      );
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } });
};

describe('cancelled while the body downloads', () => {
  it('the caller’s abort (e.g. the history range changed) rejects as canceled, with no toast', async () => {
    signIn();
    stubFetch(slowBody);
    const controller = new AbortController();
    const call = http.http.get('/api/query/data', undefined, { signal: controller.signal });
    await flush();
    controller.abort();
    const error = await call.catch((e: unknown) => e);
    expect(http.isCanceled(error)).toBe(true);
    expect(toasts).toEqual([]);
    expect(loading.useLoadingStore.getState().pending).toBe(0);
  });

  it('a duplicate call cancels the first one while its body is still downloading', async () => {
    signIn();
    let n = 0;
    stubFetch((url, init) => {
      n += 1;
      return n === 1 ? slowBody(url, init) : json({ data: 'second' });
    });
    const first = http.http.get('/api/query/data');
    await flush();
    const second = http.http.get('/api/query/data');
    expect(http.isCanceled(await first.catch((e: unknown) => e))).toBe(true);
    await expect(second).resolves.toBe('second');
    expect(toasts).toEqual([]);
  });

  it('the 120 s timeout also covers a body that never finishes', async () => {
    vi.useFakeTimers();
    signIn();
    stubFetch(slowBody);
    const state = track(http.http.get('/api/query/data'));
    await vi.advanceTimersByTimeAsync(120_000);
    expect(state.settled).toBe(true);
    expect((state.error as InstanceType<HttpModule['HttpError']>).kind).toBe('timeout');
    expect(toasts).toEqual([{ level: 'error', text: '请求超时，请稍后重试' }]);
  });

  it('a body that breaks for another reason is still a system error', async () => {
    signIn();
    stubFetch(() => new Response('{"data":', { status: 200 }));
    await expect(http.http.get('/api/query/data')).rejects.toMatchObject({ kind: 'other' });
    expect(toasts).toEqual([{ level: 'error', text: '系统错误，请联系管理员' }]);
  });
});

describe('timeout', () => {
  it('rejects at exactly 120000 ms with 请求超时，请稍后重试', async () => {
    vi.useFakeTimers();
    signIn();
    stubFetch(hang);
    const state = track(http.http.get('/api/statistics/range'));
    await vi.advanceTimersByTimeAsync(119_999);
    expect(state.settled).toBe(false);
    expect(toasts).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(state.settled).toBe(true);
    expect(state.error).toBeInstanceOf(http.HttpError);
    expect((state.error as InstanceType<HttpModule['HttpError']>).kind).toBe('timeout');
    expect(toasts).toEqual([{ level: 'error', text: '请求超时，请稍后重试' }]);
    expect(loading.useLoadingStore.getState().pending).toBe(0);
  });
});

describe('errors', () => {
  it('network failure → 网络错误，请检查网络连接是否正常', async () => {
    signIn();
    stubFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    const error = await http.http.get('/api/regions').catch((e: unknown) => e);
    expect((error as InstanceType<HttpModule['HttpError']>).kind).toBe('network');
    expect(toasts).toEqual([{ level: 'error', text: '网络错误，请检查网络连接是否正常' }]);
  });

  it('HTTP error with a body: the body message is toasted, the promise rejects with status and code', async () => {
    signIn();
    stubFetch(() =>
      json({ code: 'CONFLICT', message: '名称已存在' }, { status: 409, statusText: 'Conflict' }),
    );
    const error = (await http.http
      .post('/api/thing/categories', { name: 'x' })
      .catch((e: unknown) => e)) as InstanceType<HttpModule['HttpError']>;
    expect(error).toBeInstanceOf(http.HttpError);
    expect(error.kind).toBe('http');
    expect(error.status).toBe(409);
    expect(error.code).toBe('CONFLICT');
    expect(error.message).toBe('名称已存在');
    expect(toasts).toEqual([{ level: 'error', text: '名称已存在' }]);
  });

  it('500 without a body → 系统错误，请联系管理员', async () => {
    signIn();
    stubFetch(() => new Response(null, { status: 500, statusText: 'Internal Server Error' }));
    const error = (await http.http.get('/api/regions').catch((e: unknown) => e)) as InstanceType<
      HttpModule['HttpError']
    >;
    expect(error.status).toBe(500);
    expect(error.message).toBe('系统错误，请联系管理员');
    expect(toasts).toEqual([{ level: 'error', text: '系统错误，请联系管理员' }]);
  });

  it('a 200 whose body is not JSON → 系统错误，请联系管理员', async () => {
    signIn();
    stubFetch(() => new Response('<html>', { status: 200 }));
    await expect(http.http.get('/api/regions')).rejects.toMatchObject({ kind: 'other' });
    expect(toasts).toEqual([{ level: 'error', text: '系统错误，请联系管理员' }]);
  });

  it('401 clears token, refreshToken and the unitAll cache and goes to #/login?redirectUrl=...', async () => {
    signIn();
    localStorage.setItem('unitAll', '[{"id":1}]');
    localStorage.setItem('unrelated', 'kept');
    window.location.hash = '#/energy_monitor/realtime?id=3';
    stubFetch(() => json({ code: 'UNAUTHORIZED', message: '未登录' }, { status: 401 }));
    await expect(http.http.get('/api/regions')).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
    expect(localStorage.getItem('unitAll')).toBeNull();
    expect(localStorage.getItem('unrelated')).toBe('kept');
    expect(session.useSession.getState().token).toBeNull();
    expect(window.location.hash).toBe(
      `#/login?redirectUrl=${encodeURIComponent('/energy_monitor/realtime?id=3')}`,
    );
  });

  it('401 on the login page clears the session but leaves the address alone', async () => {
    signIn();
    window.location.hash = '#/login?redirect=%2Fhome';
    stubFetch(() => json({ code: 'UNAUTHORIZED', message: '未登录' }, { status: 401 }));
    await expect(http.http.get('/api/regions')).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem('token')).toBeNull();
    expect(window.location.hash).toBe('#/login?redirect=%2Fhome');
  });

  it('quiet shows no toast but still rejects', async () => {
    signIn();
    stubFetch(() => json({ code: 'FORBIDDEN', message: '无权限' }, { status: 403 }));
    await expect(http.http.get('/api/auth/me', undefined, { quiet: true })).rejects.toMatchObject({
      status: 403,
      message: '无权限',
    });
    stubFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(http.http.get('/api/auth/me', undefined, { quiet: true })).rejects.toMatchObject({
      kind: 'network',
    });
    expect(toasts).toEqual([]);
  });
});

describe('token refresh', () => {
  it('expired access token + valid refresh token: POST /api/auth/token first, store the pair, then the call', async () => {
    const old = signIn(expiredToken(), validToken('refresh-old'));
    const fresh = { token: validToken('access-new'), refreshToken: validToken('refresh-new') };
    stubFetch((url) => (url === '/api/auth/token' ? json({ data: fresh }) : json({ data: 'ok' })));
    await expect(http.http.get('/api/regions')).resolves.toBe('ok');
    expect(calls.map((c) => `${c.init.method} ${c.url}`)).toEqual([
      'POST /api/auth/token',
      'GET /api/regions',
    ]);
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ refreshToken: old.refreshToken });
    expect(headerOf(calls[1], 'x-Authorization')).toBe(`Bearer ${fresh.token}`);
    expect(localStorage.getItem('token')).toBe(fresh.token);
    expect(localStorage.getItem('refreshToken')).toBe(fresh.refreshToken);
    expect(session.useSession.getState()).toMatchObject(fresh);
    expect(toasts).toEqual([]);
  });

  it('two concurrent calls trigger only one refresh', async () => {
    signIn(expiredToken(), validToken('refresh-old'));
    const fresh = { token: validToken('access-new'), refreshToken: validToken('refresh-new') };
    stubFetch(async (url) => {
      if (url === '/api/auth/token') {
        await flush();
        return json({ data: fresh });
      }
      return json({ data: url });
    });
    const results = await Promise.all([http.http.get('/api/regions'), http.http.get('/api/units')]);
    expect(results).toEqual(['/api/regions', '/api/units']);
    expect(calls.filter((c) => c.url === '/api/auth/token')).toHaveLength(1);
    const others = calls.filter((c) => c.url !== '/api/auth/token');
    expect(others).toHaveLength(2);
    for (const c of others) expect(headerOf(c, 'x-Authorization')).toBe(`Bearer ${fresh.token}`);
  });

  it('a later expiry refreshes again (the shared refresh promise is released)', async () => {
    signIn(expiredToken(), validToken('refresh-old'));
    let round = 0;
    stubFetch((url) => {
      if (url !== '/api/auth/token') return json({ data: 'ok' });
      round += 1;
      return json({
        data: { token: round === 1 ? expiredToken('a1') : validToken('a2'), refreshToken: validToken('r') },
      });
    });
    await http.http.get('/api/regions');
    await http.http.get('/api/units');
    expect(calls.filter((c) => c.url === '/api/auth/token')).toHaveLength(2);
  });

  it.each([401, 404])(
    'refresh answering %i → warning 登录超时，请重新登录！ and session cleared',
    async (status) => {
      signIn(expiredToken(), validToken('refresh'));
      localStorage.setItem('unitAll', '[]');
      window.location.hash = '#/analysis/kpi';
      stubFetch(() => json({ code: 'REFRESH_INVALID', message: 'refresh token invalid' }, { status }));
      await expect(http.http.get('/api/regions')).rejects.toMatchObject({ kind: 'session' });
      expect(calls.map((c) => c.url)).toEqual(['/api/auth/token']);
      expect(toasts).toEqual([{ level: 'warning', text: '登录超时，请重新登录！' }]);
      expect(localStorage.getItem('token')).toBeNull();
      expect(localStorage.getItem('refreshToken')).toBeNull();
      expect(localStorage.getItem('unitAll')).toBeNull();
      expect(session.useSession.getState().token).toBeNull();
      expect(window.location.hash).toBe(`#/login?redirectUrl=${encodeURIComponent('/analysis/kpi')}`);
    },
  );

  it('refresh answering 500 with a message → error with that message, session cleared', async () => {
    signIn(expiredToken(), validToken('refresh'));
    stubFetch(() => json({ code: 'INTERNAL', message: '数据库不可用' }, { status: 500 }));
    await expect(http.http.get('/api/regions')).rejects.toMatchObject({ kind: 'session', status: 500 });
    expect(toasts).toEqual([{ level: 'error', text: '数据库不可用' }]);
    expect(localStorage.getItem('token')).toBeNull();
    expect(session.useSession.getState().refreshToken).toBeNull();
  });

  it('refresh answering 500 without a message → error 登录超时，请重新登录！', async () => {
    signIn(expiredToken(), validToken('refresh'));
    stubFetch(() => new Response(null, { status: 500 }));
    await expect(http.http.get('/api/regions')).rejects.toMatchObject({ kind: 'session' });
    expect(toasts).toEqual([{ level: 'error', text: '登录超时，请重新登录！' }]);
    expect(session.useSession.getState().token).toBeNull();
  });

  it('a refresh that meets a dying replica (network error, then 502) is tried again and keeps the session', async () => {
    vi.useFakeTimers({ now: Date.now(), toFake: ['setTimeout'] });
    signIn(expiredToken(), validToken('refresh'));
    const fresh = { token: validToken(), refreshToken: validToken('refresh') };
    let tries = 0;
    stubFetch((url) => {
      if (url !== '/api/auth/token') return json({ data: 'ok' });
      tries++;
      if (tries === 1) throw new TypeError('Failed to fetch');
      if (tries === 2) return new Response('bad gateway', { status: 502 });
      return json({ data: fresh });
    });
    const answer = http.http.get('/api/regions');
    await vi.advanceTimersByTimeAsync(2000);
    await expect(answer).resolves.toBe('ok');
    expect(tries).toBe(3);
    expect(toasts).toEqual([]);
    expect(session.useSession.getState().token).toBe(fresh.token);
    vi.useRealTimers();
  });

  it('a refresh that never reaches a server after its retries ends the session', async () => {
    vi.useFakeTimers({ now: Date.now(), toFake: ['setTimeout'] });
    signIn(expiredToken(), validToken('refresh'));
    stubFetch(() => new Response(null, { status: 503 }));
    const answer = http.http.get('/api/regions');
    const settled = expect(answer).rejects.toMatchObject({ kind: 'session', status: 503 });
    await vi.advanceTimersByTimeAsync(2000);
    await settled;
    expect(calls.filter((c) => c.url === '/api/auth/token')).toHaveLength(3);
    expect(toasts).toEqual([{ level: 'error', text: '登录超时，请重新登录！' }]);
    expect(session.useSession.getState().token).toBeNull();
    vi.useRealTimers();
  });

  it('two concurrent calls whose refresh fails show a single toast', async () => {
    signIn(expiredToken(), validToken('refresh'));
    stubFetch(() => json({ code: 'REFRESH_INVALID', message: 'x' }, { status: 401 }));
    const results = await Promise.allSettled([http.http.get('/api/regions'), http.http.get('/api/units')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toHaveLength(1);
    expect(toasts).toEqual([{ level: 'warning', text: '登录超时，请重新登录！' }]);
  });

  it('refresh token itself expired → error 重新登录, session cleared, no refresh call', async () => {
    signIn(expiredToken(), expiredToken('refresh'));
    stubFetch(() => json({ data: 'never' }));
    await expect(http.http.get('/api/regions')).rejects.toMatchObject({
      kind: 'session',
      message: '重新登录',
    });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(toasts).toEqual([{ level: 'error', text: '重新登录' }]);
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
    expect(loading.useLoadingStore.getState().pending).toBe(0);
  });

  it('a refresh token under 2 s from expiry counts as expired', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const nowSec = 1_700_000_000;
    signIn(jwt(nowSec - 10), jwt(nowSec + 1.999));
    stubFetch(() => json({ data: 'never' }));
    await expect(http.http.get('/api/regions')).rejects.toMatchObject({ kind: 'session' });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(toasts).toEqual([{ level: 'error', text: '重新登录' }]);
  });
});

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describe('postForBlob', () => {
  it('returns the blob on 200', async () => {
    signIn();
    stubFetch(() => new Response('a,b\n1,2', { status: 200 }));
    const blob = await http.postForBlob('/api/statistics/output', { ids: [1] });
    expect(await blob.text()).toBe('a,b\n1,2');
    expect(calls[0]?.init.method).toBe('POST');
    expect(headerOf(calls[0], 'Content-Type')).toBe('application/json');
  });

  it('status 403 toasts the status text', async () => {
    signIn();
    stubFetch(() => new Response('denied', { status: 403, statusText: 'Forbidden' }));
    await expect(http.postForBlob('/api/statistics/output', {})).rejects.toMatchObject({
      status: 403,
      message: 'Forbidden',
    });
    expect(toasts).toEqual([{ level: 'error', text: 'Forbidden' }]);
  });

  it('reads a streamed body chunk by chunk: bytes, lines against X-Export-Rows, then 100 %', async () => {
    signIn();
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('a,b\r\n1,2\r\n'));
        controller.enqueue(encoder.encode('3,4\r\n5,6\r\n'));
        controller.close();
      },
    });
    stubFetch(
      () =>
        new Response(body, {
          status: 200,
          headers: { 'Content-Type': 'text/csv; charset=utf-8', 'X-Export-Rows': '4' },
        }),
    );
    const seen: import('./http.ts').DownloadProgress[] = [];
    const blob = await http.postForBlob('/api/statistics/output', {}, { onProgress: (p) => seen.push(p) });
    expect(await blob.text()).toBe('a,b\r\n1,2\r\n3,4\r\n5,6\r\n');
    expect(blob.type).toBe('text/csv; charset=utf-8');
    expect(seen.map((p) => [p.received, p.lines, p.percent])).toEqual([
      [0, 0, 0],
      [10, 2, 50],
      [20, 4, 99],
      [20, 4, 100],
    ]);
    expect(seen[0]?.rows).toBe(4);
  });

  it('a length makes the percentage of a binary file', async () => {
    signIn();
    stubFetch(
      () =>
        new Response(new Uint8Array(8), {
          status: 200,
          headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': '8' },
        }),
    );
    const seen: (number | null)[] = [];
    await http.postForBlob('/api/statistics/output', {}, { onProgress: (p) => seen.push(p.percent) });
    expect(seen[0]).toBe(0);
    expect(seen.at(-1)).toBe(100);
  });

  it('a body cut short fails with its own reason and hands over no file', async () => {
    signIn();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ === 0) controller.enqueue(new Uint8Array([80, 75, 3, 4]));
        else controller.error(new TypeError('network error'));
      },
    });
    stubFetch(() => new Response(body, { status: 200, headers: { 'Content-Type': XLSX_TYPE } }));
    const seen: number[] = [];
    await expect(
      http.postForBlob('/api/statistics/output', {}, { onProgress: (p) => seen.push(p.received) }),
    ).rejects.toMatchObject({ kind: 'network', message: '下载中断，文件不完整，未保存' });
    expect(seen).toContain(4);
    expect(toasts).toEqual([{ level: 'error', text: '下载中断，文件不完整，未保存' }]);
  });

  it('any status other than 200 is an error, even a 2xx', async () => {
    signIn();
    stubFetch(() => new Response(null, { status: 204, statusText: 'No Content' }));
    await expect(http.postForBlob('/api/statistics/output', {})).rejects.toMatchObject({ status: 204 });
    expect(toasts).toEqual([{ level: 'error', text: 'No Content' }]);
  });
});

describe('buildUrl', () => {
  it('repeats the key for arrays', () => {
    expect(http.buildUrl('/api/statistics/configs/config', { ids: [1, 2, 3], name: 'a b' })).toBe(
      '/api/statistics/configs/config?ids=1&ids=2&ids=3&name=a+b',
    );
  });

  it('skips empty values and appends to an existing query', () => {
    expect(http.buildUrl('/api/x?seq=1', { a: undefined, b: null, c: '', d: 0, e: false })).toBe(
      '/api/x?seq=1&d=0&e=false',
    );
    expect(http.buildUrl('/api/x', {})).toBe('/api/x');
    expect(http.buildUrl('/api/x')).toBe('/api/x');
  });

  it('the array form reaches fetch', async () => {
    signIn();
    stubFetch(() => json({ data: [] }));
    await http.http.delete('/api/thing/things/4/abilities', { ids: [7, 8] });
    expect(calls[0]?.url).toBe('/api/thing/things/4/abilities?ids=7&ids=8');
    expect(calls[0]?.init.method).toBe('DELETE');
  });
});
