import {
  Data,
  type Endpoint,
  type EndpointBody,
  type EndpointParams,
  type EndpointQuery,
  type EndpointResponse,
  ErrorBody,
} from '@kilowatch/contract';
import type { FastifyContextConfig, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { TSchema } from 'typebox';

/** A request of endpoint `E`: params, query and body typed from its schemas. */
type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Params: EndpointParams<E>;
  Querystring: EndpointQuery<E>;
  Body: EndpointBody<E>;
}>;

/**
 * Answers the endpoint's payload (route() wraps it as `{ data }`), or the reply after sending
 * something else with it (a file, a 204, a 422 with row errors, a hijacked stream).
 */
export type EndpointHandler<E extends Endpoint> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<EndpointResponse<E> | FastifyReply>;

export interface EndpointOptions {
  /** Who may call it (modules/auth/hook.ts): `resource`, `roles`, `public`, `queryToken`. */
  config?: FastifyContextConfig;
  /** A route that checks its body itself (telemetry ingest) replaces the validator. */
  validatorCompiler?: () => (data: unknown) => boolean;
}

/** The plugin context a route is added to: its prefix is cut from the endpoint's whole path. */
interface Registrar {
  prefix: string;
  route(options: object): unknown;
}

// The same wrap object each time an endpoint is registered, so the compiled serializer of the
// answer is found again when another app is built in the same process (serialization.ts).
const wrapped = new WeakMap<TSchema, TSchema>();
const dataOf = (response: TSchema): TSchema => {
  let schema = wrapped.get(response);
  if (!schema) {
    schema = Data(response);
    wrapped.set(response, schema);
  }
  return schema;
};

/**
 * Registers one contract endpoint with its handler: the path relative to the plugin's prefix,
 * the schemas, the standard `{ code, message }` errors, tags and summary for the OpenAPI
 * document, and the `{ data }` wrap of the answer.
 */
export function route<E extends Endpoint>(
  app: Registrar,
  endpoint: E,
  options: EndpointOptions,
  handler: EndpointHandler<E>,
): void {
  if (!endpoint.path.startsWith(app.prefix)) {
    throw new Error(`${endpoint.method} ${endpoint.path} is not under this plugin's prefix ${app.prefix}`);
  }
  const { response, raw, responses, errors = ['4xx', '5xx'] } = endpoint;
  const schema: FastifySchema & Record<string, unknown> = {
    tags: endpoint.tags,
    summary: endpoint.summary,
    ...(endpoint.description === undefined ? {} : { description: endpoint.description }),
    ...(endpoint.params ? { params: endpoint.params } : {}),
    ...(endpoint.querystring ? { querystring: endpoint.querystring } : {}),
    ...(endpoint.body ? { body: endpoint.body } : {}),
    ...(endpoint.consumes ? { consumes: endpoint.consumes } : {}),
    ...(endpoint.produces ? { produces: endpoint.produces } : {}),
    response: {
      ...(response ? { 200: raw ? response : dataOf(response) } : {}),
      ...responses,
      ...Object.fromEntries(errors.map((range) => [range, ErrorBody])),
    },
  };
  app.route({
    method: endpoint.method,
    url: endpoint.path.slice(app.prefix.length),
    ...options,
    schema,
    handler: async (request: EndpointRequest<E>, reply: FastifyReply) => {
      const out = await handler(request, reply);
      return out === reply || raw || !response ? out : { data: out };
    },
  });
}
