import type {
  Endpoint,
  EndpointBody,
  EndpointParams,
  EndpointQuery,
  EndpointResponse,
} from '@kilowatch/contract';
import { type QueryValue, type RequestOptions, request } from './http.ts';

/** What a call of `E` sends: path parameters and body when `E` takes them, its query if any. */
export type CallInput<E extends Endpoint> = (EndpointParams<E> extends undefined
  ? { params?: undefined }
  : { params: EndpointParams<E> }) &
  (EndpointQuery<E> extends undefined ? { query?: undefined } : { query?: EndpointQuery<E> }) &
  (EndpointBody<E> extends undefined ? { body?: undefined } : { body: EndpointBody<E> });

/** How it goes out: see RequestOptions (`form` for a multipart upload instead of a JSON body). */
export type CallOptions = Pick<
  RequestOptions,
  'silent' | 'quiet' | 'anonymous' | 'allowDuplicate' | 'signal' | 'form'
>;

/** `/api/thing/things/:id` with `{ id: 7 }` → `/api/thing/things/7`. */
export function pathOf(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`${path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
}

/**
 * Calls one endpoint of the contract through `request` (http.ts: token, overlay, errors, `data`
 * unwrap), with params, query and body typed from the endpoint and its answer typed as its
 * response: `call(thingGet, { params: { id } })` is a `Promise<Thing>`.
 */
export function call<E extends Endpoint>(
  endpoint: E,
  // The input may be left out when nothing in it is required.
  ...[input]: Partial<CallInput<E>> extends CallInput<E>
    ? [(CallInput<E> & CallOptions)?]
    : [CallInput<E> & CallOptions]
): Promise<EndpointResponse<E>> {
  const { params, query, body, ...options } = (input ?? {}) as CallOptions & {
    params?: Record<string, unknown>;
    query?: Record<string, QueryValue>;
    body?: unknown;
  };
  return request<EndpointResponse<E>>(pathOf(endpoint.path, params), {
    ...options,
    method: endpoint.method,
    params: query,
    data: body,
    raw: endpoint.raw === true,
  });
}
