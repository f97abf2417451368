import type { Static, TSchema } from 'typebox';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One HTTP endpoint: what it takes and what it answers. The server registers it with its handler
 * (`route()` in server/src/plugins/route.ts), the console calls it (`call()` in web/src/lib/call.ts),
 * and the OpenAPI document is generated from it, so path, method and shapes are written once.
 */
export interface Endpoint {
  method: HttpMethod;
  /** The whole path as clients call it, parameters Fastify style: `/api/thing/things/:id`. */
  path: string;
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  /**
   * The payload of a 200, sent as `{ data }` (see `Data`), or as it is with `raw`. Absent when
   * the endpoint answers some other way (a stream, a 204).
   */
  response?: TSchema;
  /** The 200 body is `response` itself, not `{ data }` (login, files). */
  raw?: true;
  /** Statuses with a body of their own besides the `ErrorBody` errors (e.g. 422 with row errors). */
  responses?: Readonly<Record<number, TSchema>>;
  /** Error ranges answered with `ErrorBody`; both unless the endpoint takes no input that can be bad. */
  errors?: readonly ('4xx' | '5xx')[];
  tags: readonly string[];
  summary: string;
  description?: string;
  consumes?: readonly string[];
  produces?: readonly string[];
}

/**
 * Declares an endpoint; the literal type is kept, so `Static<>` of each part reaches the server's
 * handler and the console's caller.
 *
 * @example
 * export const unitList = endpoint({
 *   method: 'GET', path: '/api/units', querystring: UnitQuery, response: Page(Unit),
 *   tags: ['things'], summary: 'Measurement units, paged',
 * });
 */
export const endpoint = <const E extends Endpoint>(spec: E): E => spec;

/** Whether an export is an endpoint (the tests that walk every endpoint of the contract use it). */
export const isEndpoint = (value: unknown): value is Endpoint =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'tags' in value;

/** The path parameters an endpoint takes (`undefined` when its path has none). */
export type EndpointParams<E extends Endpoint> = E extends { params: infer S extends TSchema }
  ? Static<S>
  : undefined;
/** Its query parameters. */
export type EndpointQuery<E extends Endpoint> = E extends { querystring: infer S extends TSchema }
  ? Static<S>
  : undefined;
/** Its JSON body. */
export type EndpointBody<E extends Endpoint> = E extends { body: infer S extends TSchema }
  ? Static<S>
  : undefined;
/** What a 200 carries: the `data` of the answer (the whole body of a `raw` endpoint). */
export type EndpointResponse<E extends Endpoint> = E extends { response: infer S extends TSchema }
  ? Static<S>
  : undefined;
