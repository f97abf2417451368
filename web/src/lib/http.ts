import { REQUEST_TIMEOUT_MS, type TokenPair } from '@kilowatch/contract';
import { currentLanguage, t } from './i18n.ts';
import { isTokenExpired } from './jwt.ts';
import { useLoadingStore } from './loading.ts';
import { notify } from './notify.ts';
import { endSessionAndGoToLogin, useSession } from './session.ts';

/**
 * The one place calls leave the console (spec §7, §8): bearer header, JSON, the loading
 * overlay, duplicate cancel, the 120 s timeout, `data` unwrap, the error catalogue, 401 and
 * token refresh. Views reach it through TanStack Query hooks, never with fetch directly.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly (string | number | boolean)[];

export interface RequestOptions {
  method?: Method;
  /** Query parameters; arrays repeat the key (`ids=1&ids=2`). */
  params?: Record<string, QueryValue>;
  data?: unknown;
  /** Background calls (polls) do not show the loading overlay. */
  silent?: boolean;
  /** The caller shows its own message; the module shows none. */
  quiet?: boolean;
  /** Public calls (login, login key) send no token and skip the refresh step. */
  anonymous?: boolean;
  /** Return the whole body instead of its `data` field. */
  raw?: boolean;
  /** Concurrent calls to the same url and method are allowed (not cancelled). */
  allowDuplicate?: boolean;
  signal?: AbortSignal;
  /** A multipart body (file upload) instead of JSON `data`. */
  form?: FormData;
}

export type HttpErrorKind = 'http' | 'timeout' | 'network' | 'canceled' | 'session' | 'other';

export class HttpError extends Error {
  constructor(
    readonly kind: HttpErrorKind,
    message: string,
    readonly status?: number,
    readonly code?: string,
    /** The parsed error body, for calls whose errors carry details (e.g. import row errors). */
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const isCanceled = (e: unknown) => e instanceof HttpError && e.kind === 'canceled';

export function buildUrl(url: string, params?: Record<string, QueryValue>): string {
  if (!params) return url;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const v of value) search.append(key, String(v));
    else search.append(key, String(value));
  }
  const qs = search.toString();
  return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url;
}

const pending = new Map<string, AbortController>();

let refreshing: Promise<string> | null = null;
/** Answers of a gateway that reached no server: the refresh is tried again. */
const UNREACHED = new Set([502, 503, 504]);
const REFRESH_RETRIES = 2;
const REFRESH_RETRY_MS = 1000;

/** Swaps an expired access token for a new pair; one refresh at a time for all callers. */
function refreshAccessToken(): Promise<string> {
  refreshing ??= (async () => {
    const { refreshToken, setTokens } = useSession.getState();
    if (!refreshToken || isTokenExpired(refreshToken)) {
      notify.error(t('http.relogin'));
      endSessionAndGoToLogin();
      throw new HttpError('session', t('http.relogin'));
    }
    let response: Response | null = null;
    // A refresh that never reached a server (the network, or a load balancer answering 502–504 while
    // a replica dies) is tried again before it counts as failed and ends the session (spec §4).
    for (let attempt = 0; ; attempt++) {
      response = await fetch('/api/auth/token', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Accept-Language': currentLanguage() },
        body: JSON.stringify({ refreshToken }),
      }).catch(() => null);
      if ((response && !UNREACHED.has(response.status)) || attempt === REFRESH_RETRIES) break;
      await new Promise((resolve) => setTimeout(resolve, REFRESH_RETRY_MS));
    }
    if (!response) {
      notify.error(t('http.sessionTimeout'));
      endSessionAndGoToLogin();
      throw new HttpError('session', t('http.sessionTimeout'));
    }
    const body = (await response.json().catch(() => null)) as { data?: TokenPair; message?: string } | null;
    if (!response.ok || !body?.data) {
      const text = t('http.sessionTimeout');
      if (response.status === 401 || response.status === 404) notify.warning(text);
      else notify.error(body?.message || text);
      endSessionAndGoToLogin();
      throw new HttpError('session', body?.message || text, response.status);
    }
    setTokens(body.data.token, body.data.refreshToken);
    return body.data.token;
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/**
 * The access token to send now, refreshed first when it has expired; null without a session.
 * Whatever sends a token (header or, for /api/auth/me, the query) must take it from here.
 */
export async function currentAccessToken(): Promise<string | null> {
  const { token, refreshToken } = useSession.getState();
  if (!token && !refreshToken) return null;
  if (token && !isTokenExpired(token)) return token;
  return refreshAccessToken();
}

async function authorizationHeader(): Promise<string | null> {
  const token = await currentAccessToken();
  return token && `Bearer ${token}`;
}

function fail(error: HttpError, quiet: boolean | undefined): never {
  if (!quiet && error.kind !== 'canceled' && error.kind !== 'session') notify.error(error.message);
  throw error;
}

/**
 * One call from start to the end of its body: `read` consumes the response inside the call, so
 * duplicate cancel, the caller's signal and the timeout cover the download too, and an abort
 * while the body is still arriving is a cancellation (or a timeout), never a system error.
 */
async function call<T>(
  url: string,
  options: RequestOptions,
  accept: 'json' | 'blob',
  read: (response: Response) => Promise<T>,
): Promise<T> {
  const method = options.method ?? 'GET';
  const fullUrl = buildUrl(url, options.params);
  const key = `${method} ${fullUrl}`;
  const controller = new AbortController();
  if (!options.allowDuplicate) {
    pending.get(key)?.abort('duplicate');
    pending.set(key, controller);
  }
  const timer = setTimeout(() => controller.abort('timeout'), REQUEST_TIMEOUT_MS);
  if (options.signal?.aborted) controller.abort('canceled');
  else options.signal?.addEventListener('abort', () => controller.abort('canceled'), { once: true });
  const loading = !options.silent;
  if (loading) useLoadingStore.getState().start();
  try {
    const headers: Record<string, string> = {
      Accept: accept === 'json' ? 'application/json' : '*/*',
      'Accept-Language': currentLanguage(),
    };
    if (options.data !== undefined && !options.form) headers['Content-Type'] = 'application/json';
    if (!options.anonymous) {
      const authorization = await authorizationHeader();
      if (authorization) headers['x-Authorization'] = authorization;
    }
    const response = await fetch(fullUrl, {
      method,
      headers,
      body: options.form ?? (options.data === undefined ? undefined : JSON.stringify(options.data)),
      signal: controller.signal,
    });
    return await read(response);
  } catch (e) {
    if (e instanceof HttpError) throw e;
    if (controller.signal.aborted) {
      if (controller.signal.reason === 'timeout') throw new HttpError('timeout', t('http.timeout'));
      throw new HttpError('canceled', t('http.canceled'));
    }
    if (e instanceof TypeError) throw new HttpError('network', t('http.network'));
    throw new HttpError('other', t('http.system'));
  } finally {
    clearTimeout(timer);
    if (pending.get(key) === controller) pending.delete(key);
    if (loading) useLoadingStore.getState().end();
  }
}

async function errorFromResponse(response: Response): Promise<HttpError> {
  const body = (await response.json().catch(() => null)) as { code?: string; message?: string } | null;
  if (response.status === 401) endSessionAndGoToLogin();
  const message =
    body?.message || (response.status >= 500 ? t('http.system') : response.statusText || t('http.system'));
  return new HttpError('http', message, response.status, body?.code, body);
}

/** A JSON call; resolves with the body's `data` (or the whole body with `raw`). */
export async function request<T>(url: string, options: RequestOptions = {}): Promise<T> {
  try {
    return await call(url, options, 'json', async (response) => {
      if (!response.ok) throw await errorFromResponse(response);
      if (response.status === 204) return undefined as T;
      // A body that is not JSON is a system error; one cut off by an abort is a cancellation.
      const body = (await response.json()) as unknown;
      if (!options.raw && body !== null && typeof body === 'object' && 'data' in body) {
        return (body as { data: T }).data;
      }
      return body as T;
    });
  } catch (e) {
    return fail(e as HttpError, options.quiet);
  }
}

export const http = {
  get: <T>(url: string, params?: RequestOptions['params'], options?: RequestOptions) =>
    request<T>(url, { ...options, method: 'GET', params }),
  post: <T>(url: string, data?: unknown, options?: RequestOptions) =>
    request<T>(url, { ...options, method: 'POST', data }),
  put: <T>(url: string, data?: unknown, options?: RequestOptions) =>
    request<T>(url, { ...options, method: 'PUT', data }),
  patch: <T>(url: string, data?: unknown, options?: RequestOptions) =>
    request<T>(url, { ...options, method: 'PATCH', data }),
  delete: <T>(url: string, params?: RequestOptions['params'], options?: RequestOptions) =>
    request<T>(url, { ...options, method: 'DELETE', params }),
};

/** How far a download has come (postForBlob's `onProgress`). */
export interface DownloadProgress {
  /** Bytes of the body received (after the transfer's own compression is undone). */
  received: number;
  /** The body's length when the server sent it (Content-Length of an uncompressed answer). */
  total: number | null;
  /** Rows the server said to expect (X-Export-Rows), and lines received so far for a text body. */
  rows: number | null;
  lines: number | null;
  /** 0–100 when it is known: from the length, else from the lines of a text file against its rows. */
  percent: number | null;
}

/**
 * Reads a body chunk by chunk, telling `onProgress` after each. A body that ends early (the server
 * failed after its first byte and cut the connection) rejects like a lost network: the caller never
 * gets a partial file.
 */
async function readWithProgress(
  response: Response,
  onProgress: (p: DownloadProgress) => void,
): Promise<Blob> {
  const type = response.headers.get('Content-Type') ?? '';
  const encoded = response.headers.get('Content-Encoding');
  const length = Number(response.headers.get('Content-Length'));
  const total = !encoded && length > 0 ? length : null;
  const rowsHeader = Number(response.headers.get('X-Export-Rows'));
  const rows = rowsHeader > 0 ? rowsHeader : null;
  const text = type.startsWith('text/');
  const reader = response.body?.getReader();
  if (!reader) return response.blob();
  const chunks: Uint8Array[] = [];
  let received = 0;
  let lines = 0;
  onProgress({ received, total, rows, lines: text ? 0 : null, percent: total || (text && rows) ? 0 : null });
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch (e) {
      // An abort (cancel, timeout) is the call's to report; anything else cut the file short.
      if (e instanceof TypeError) throw new HttpError('network', t('http.cutShort'));
      throw e;
    }
    const { done, value } = next;
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    if (text) for (const byte of value) if (byte === 10) lines++;
    const percent = total
      ? Math.min(100, (received / total) * 100)
      : text && rows
        ? Math.min(99, (lines / rows) * 100)
        : null;
    onProgress({ received, total, rows, lines: text ? lines : null, percent });
  }
  onProgress({ received, total, rows, lines: text ? lines : null, percent: 100 });
  return new Blob(chunks as BlobPart[], { type });
}

/**
 * The generic post helper of spec §7 for binary answers (exports): a status other than 200
 * shows the status text as the error. With `onProgress` the body is read as a stream and each
 * chunk reported; the whole file is handed over only once it has all arrived.
 */
export async function postForBlob(
  url: string,
  data: unknown,
  options: RequestOptions & { onProgress?: (progress: DownloadProgress) => void } = {},
): Promise<Blob> {
  const { onProgress, ...rest } = options;
  try {
    return await call(url, { ...rest, method: 'POST', data }, 'blob', async (response) => {
      if (response.status !== 200) {
        if (response.status === 401) endSessionAndGoToLogin();
        throw new HttpError('http', response.statusText || t('http.system'), response.status);
      }
      return onProgress ? readWithProgress(response, onProgress) : response.blob();
    });
  } catch (e) {
    return fail(e as HttpError, options.quiet);
  }
}

/** GETs a binary answer (an image shown from a blob URL); errors like `request`. */
export async function getBlob(url: string, options: RequestOptions = {}): Promise<Blob> {
  try {
    return await call(url, { ...options, method: 'GET' }, 'blob', async (response) => {
      if (!response.ok) throw await errorFromResponse(response);
      return response.blob();
    });
  } catch (e) {
    return fail(e as HttpError, options.quiet);
  }
}

/** Posts one file as multipart field `field`; resolves like `request` (the answer's `data`). */
export function upload<T>(
  url: string,
  file: Blob,
  options: RequestOptions & { field?: string } = {},
): Promise<T> {
  const form = new FormData();
  form.append(options.field ?? 'file', file, file instanceof File ? file.name : 'upload');
  return request<T>(url, { ...options, method: 'POST', form });
}

/** The file name of a Content-Disposition header (RFC 5987 `filename*` first), else `fallback`. */
export function fileNameFrom(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // A malformed encoded name: the plain filename= below is the server's other spelling.
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition);
  return plain?.[1]?.trim() || fallback;
}

/** GETs a file and saves it under the server's name (or `fallbackName`). */
export async function download(
  url: string,
  fallbackName: string,
  options: RequestOptions = {},
): Promise<void> {
  let file: { blob: Blob; name: string };
  try {
    file = await call(url, { ...options, method: 'GET' }, 'blob', async (response) => {
      if (!response.ok) throw await errorFromResponse(response);
      const name = fileNameFrom(response.headers.get('Content-Disposition'), fallbackName);
      return { blob: await response.blob(), name };
    });
  } catch (e) {
    return fail(e as HttpError, options.quiet);
  }
  const href = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = file.name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}
