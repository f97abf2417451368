import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ErrorBody, InfluxHealth, InfluxV1ErrorBody, InfluxV1WriteQuery } from '@kilowatch/contract';
import { Type } from 'typebox';
import { SERVER_VERSION } from '../version.ts';
import { acceptRawBodies, DEVICE_ROUTE, influxToken, requireDevice } from './device-http.ts';
import type { Precision } from './line-protocol.ts';
import { writeLines } from './line-write.ts';
import type { IngestService } from './service.ts';

/**
 * The InfluxDB release whose HTTP API the routes below answer like (ping headers, health):
 * clients read the version to pick an API, and 2.x is the one that has both write APIs.
 */
const INFLUX_COMPAT_VERSION = '2.7.0';
const VERSION_HEADERS = { 'x-influxdb-version': INFLUX_COMPAT_VERSION, 'x-influxdb-build': 'OSS' };

const tags = ['telemetry'];
/** Line-protocol bodies (compressed) up to this size, as on /api/v2/write. */
const LINE_BODY_LIMIT = 16 * 1024 * 1024;

// Module constants, not built per registration: the compiled validators and serializers are
// kept per schema object (plugins/validation.ts, plugins/serialization.ts).
const NoContent = Type.Null();
const PingQuery = Type.Object({ verbose: Type.Optional(Type.String()) });
const PingVersion = Type.Object({ version: Type.String() });
const V1Query = Type.Object({ q: Type.Optional(Type.String()), p: Type.Optional(Type.String()) });
const V1QueryResults = Type.Object({ results: Type.Array(Type.Object({ statement_id: Type.Integer() })) });

/** InfluxDB 1.x precisions: `n` and `u` are the short forms of ns and us. */
const V1_PRECISION: Record<string, Precision> = { n: 'ns', u: 'us' };

/**
 * The InfluxDB endpoints outside /api that Telegraf, Node-RED and the InfluxDB client libraries
 * call at the server's root: GET /ping, GET /health, POST /write (1.x write API) and POST
 * /query (only CREATE DATABASE, which Telegraf's outputs.influxdb sends when it starts).
 */
export const influxRoutes: FastifyPluginAsyncTypebox<{
  service: IngestService;
  /** Rejects when the database cannot answer (the health check). */
  ping: () => Promise<void>;
}> = async (app, { service, ping }) => {
  app.get(
    '/ping',
    {
      config: DEVICE_ROUTE,
      schema: {
        tags,
        summary: 'InfluxDB ping: 204 with X-Influxdb-Version and X-Influxdb-Build (HEAD too)',
        querystring: PingQuery,
        response: { 200: PingVersion, 204: NoContent },
      },
    },
    async (request, reply) => {
      reply.headers(VERSION_HEADERS);
      // InfluxDB 1.x: ?verbose=true answers the version as JSON.
      if (request.query.verbose === 'true') return { version: INFLUX_COMPAT_VERSION };
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/health',
    {
      config: DEVICE_ROUTE,
      schema: {
        tags,
        summary: 'InfluxDB 2.x health: status pass (200) or fail (503) with the database check',
        response: { 200: InfluxHealth, 503: InfluxHealth },
      },
    },
    async (_request, reply) => {
      reply.headers(VERSION_HEADERS);
      let failure: string | undefined;
      try {
        await ping();
      } catch (error) {
        failure = (error as Error).message;
      }
      const status = failure === undefined ? 'pass' : 'fail';
      return reply.status(failure === undefined ? 200 : 503).send({
        name: 'kilowatch',
        message:
          failure === undefined
            ? `ready for writes (Kilowatch ${SERVER_VERSION})`
            : `the database is unavailable (Kilowatch ${SERVER_VERSION})`,
        status,
        checks: [{ name: 'database', status, ...(failure === undefined ? {} : { message: failure }) }],
        version: INFLUX_COMPAT_VERSION,
        commit: SERVER_VERSION,
      });
    },
  );

  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    acceptRawBodies(scope, LINE_BODY_LIMIT);
    // InfluxDB 1.x clients (Telegraf's outputs.influxdb) read the reason from `error`.
    scope.addHook('preSerialization', async (_request, reply, payload: unknown) => {
      if (reply.statusCode < 400 || typeof payload !== 'object' || payload === null) return payload;
      const { message } = payload as { message?: unknown };
      return typeof message === 'string' ? { ...payload, error: message } : payload;
    });

    scope.post(
      '/write',
      {
        config: DEVICE_ROUTE,
        schema: {
          tags,
          summary:
            'InfluxDB 1.x line-protocol write (Telegraf outputs.influxdb, Node-RED influxdb 1.x nodes)',
          description:
            'Token: `Authorization: Token <device access token>`, the basic-auth password, or `?p=`; `db`, `rp` and `u` are ignored. Answers as `/api/v2/write` does: 204, 400 `unable to parse` / `partial write` (not worth resending), 401.',
          querystring: InfluxV1WriteQuery,
          response: { 204: NoContent, '4xx': InfluxV1ErrorBody, '5xx': InfluxV1ErrorBody },
        },
      },
      async (request, reply) => {
        const thing = await requireDevice(service, influxToken(request), 'ingest.badInfluxToken', {
          userPassword: true,
        });
        const given = request.query.precision ?? 'ns';
        const precision = V1_PRECISION[given] ?? (given as Precision);
        const outcome = await writeLines(service, thing, request, precision);
        if (outcome.status === 204) return reply.status(204).send(null);
        return reply.status(outcome.status).send({ code: 'BAD_REQUEST', message: outcome.message });
      },
    );

    scope.post(
      '/query',
      {
        config: DEVICE_ROUTE,
        schema: {
          tags,
          summary: 'InfluxDB 1.x query: only CREATE DATABASE, answered as done (writes ignore db)',
          description:
            "Telegraf's outputs.influxdb creates its database when it starts; Kilowatch keeps one store, so the statement succeeds without effect. Any other query is a 400: Kilowatch is read through its own API.",
          querystring: V1Query,
          response: {
            200: V1QueryResults,
            '4xx': InfluxV1ErrorBody,
            '5xx': ErrorBody,
          },
        },
      },
      async (request, reply) => {
        await requireDevice(service, influxToken(request), 'ingest.badInfluxToken', { userPassword: true });
        const form = Buffer.isBuffer(request.body)
          ? new URLSearchParams(request.body.toString('utf8'))
          : null;
        const q = form?.get('q') ?? request.query.q ?? '';
        if (/^\s*CREATE\s+DATABASE\s/i.test(q) && !q.includes(';')) return { results: [{ statement_id: 0 }] };
        return reply.status(400).send({
          code: 'BAD_REQUEST',
          message: 'only CREATE DATABASE is supported: Kilowatch takes writes on /write and /api/v2/write',
        });
      },
    );
  });
};
