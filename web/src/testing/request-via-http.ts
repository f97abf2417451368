import type { RequestOptions } from '../lib/http.ts';

type Verb = (url: string, ...args: unknown[]) => unknown;

/**
 * For screen tests that double `http.get/post/patch` (vi.mock of lib/http.ts): a `request` that
 * lib/call.ts can use, passing each call on to the doubled verb with the arguments it used to
 * get, `(url, params, options)` for reads and `(url, body, options)` for writes, options left
 * out when there are none. Tests keep asserting on the verbs' calls.
 */
export function requestViaHttp(http: { get: Verb; post: Verb; patch: Verb }) {
  return (url: string, options: RequestOptions = {}) => {
    const { method = 'GET', params, data, raw: _raw, ...rest } = options;
    const given = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
    if (method === 'GET') return http.get(url, params, ...(Object.keys(given).length ? [given] : []));
    const writeOptions = params === undefined ? given : { params, ...given };
    const verb = method === 'POST' ? http.post : http.patch;
    return verb(url, data, ...(Object.keys(writeOptions).length ? [writeOptions] : []));
  };
}
