import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  Data,
  ErrorBody,
  IngestResult,
  IngestStats,
  LineProtocolQuery,
  TelemetryBatch,
} from '@kilowatch/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../errors.ts';
import { translate } from '../i18n/index.ts';
import { languageOf } from '../plugins/error-handler.ts';
import { acceptRawBodies, DEVICE_ROUTE, deviceToken, inflatedBody, requireDevice } from './device-http.ts';
import type { Precision } from './line-protocol.ts';
import { writeLines } from './line-write.ts';
import type { MqttIngest } from './mqtt.ts';
import { decodeJson } from './payload.ts';
import type { Device, IngestService } from './service.ts';

export { deviceToken } from './device-http.ts';

const tags = ['telemetry'];
/** Line-protocol bodies (compressed) up to this size; Telegraf's default batch is far smaller. */
const LINE_BODY_LIMIT = 16 * 1024 * 1024;

/** 400: the reason, and what was rejected value by value when the body could be read. */
const IngestRejected = Type.Object({
  code: Type.String(),
  message: Type.String(),
  data: Type.Optional(IngestResult),
});

const JSON_STATUSES =
  '200 once the accepted values are durable (rejected ones listed with their message index); 400 with the reason when the body is not JSON or every value was rejected (do not resend: it would be rejected again); 401 for an unknown token; 5xx only when the store failed (resend).';

/**
 * Telemetry ingest over HTTP (docs/ingest.md): JSON in every ThingsBoard shape (also on
 * ThingsBoard's own device URL) and InfluxDB v2 line protocol, authenticated by the device's
 * access token, and the counters.
 */
export const ingestRoutes: FastifyPluginAsyncTypebox<{ service: IngestService; mqtt: MqttIngest }> = async (
  app,
  { service, mqtt },
) => {
  /** Decodes and writes a JSON body of `thing`: a bad body is the device's fault, a 400 with why. */
  async function acceptJson(request: FastifyRequest, reply: FastifyReply, thing: Device) {
    const inflated = await inflatedBody(request);
    if (!inflated.ok)
      return reply.status(inflated.status).send({ code: 'BAD_REQUEST', message: inflated.message });
    const decoded = decodeJson(inflated.body);
    if (!decoded.ok) {
      service.refused('http', thing.identifier, 'bad message', decoded.detail ?? 'empty body');
      throw new AppError(
        'BAD_REQUEST',
        400,
        { reason: decoded.detail ?? '' },
        { message: decoded.error === 'empty' ? 'ingest.emptyBody' : 'ingest.badJson' },
      );
    }
    const result = await service.accept(thing, service.fromJson(decoded.value), 'http');
    if (result.accepted === 0 && result.rejected.length > 0) {
      return reply.status(400).send({
        code: 'BAD_REQUEST',
        message: translate(languageOf(request), 'ingest.allRejected', { count: result.rejected.length }),
        data: result,
      });
    }
    return { data: result };
  }

  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    // Devices send JSON as application/json, text/plain or with no type at all.
    acceptRawBodies(scope);

    scope.post(
      '/telemetry',
      {
        config: DEVICE_ROUTE,
        schema: {
          tags,
          summary: 'Write telemetry of the device whose access token is sent (JSON, any ThingsBoard shape)',
          description: `Token in \`x-Device-Token\` or \`Authorization: Bearer\`. Body: \`{"P":12.5}\`, \`{"ts":…,"values":{…}}\` or an array of either. Each value is checked on its own: bad ones are listed in \`rejected\` with their message index, the rest are written. ${JSON_STATUSES}`,
          body: TelemetryBatch,
          response: { 200: Data(IngestResult), 400: IngestRejected, '4xx': ErrorBody, '5xx': ErrorBody },
        },
        // The body is decoded and checked value by value by the handler, so one bad value never fails the request.
        validatorCompiler: () => () => true,
      },
      async (request, reply) =>
        acceptJson(request, reply, await requireDevice(service, deviceToken(request), 'ingest.badToken')),
    );

    scope.post(
      '/v1/:token/telemetry',
      {
        config: DEVICE_ROUTE,
        schema: {
          tags,
          summary: "ThingsBoard's HTTP device API: telemetry with the device access token in the path",
          description: `What ThingsBoard devices and gateways send to \`/api/v1/$ACCESS_TOKEN/telemetry\`, unchanged. ${JSON_STATUSES}`,
          params: Type.Object({ token: Type.String() }),
          body: TelemetryBatch,
          response: { 200: Data(IngestResult), 400: IngestRejected, '4xx': ErrorBody, '5xx': ErrorBody },
        },
        // As above; the path token is any string, checked against the devices.
        validatorCompiler: () => () => true,
      },
      async (request, reply) =>
        acceptJson(request, reply, await requireDevice(service, request.params.token, 'ingest.badPathToken')),
    );
  });

  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    // Line protocol arrives as text/plain (Telegraf), often gzip-compressed, or with no type at all.
    acceptRawBodies(scope, LINE_BODY_LIMIT);

    scope.post(
      '/v2/write',
      {
        config: DEVICE_ROUTE,
        schema: {
          tags,
          summary: 'InfluxDB v2 line-protocol write (Telegraf outputs.influxdb_v2, Node-RED)',
          description:
            'Token: `Authorization: Token <device access token>`. Each field becomes the ability of the same identifier (or `measurement_field`); tags are ignored. 204 when every line was written; 400 `unable to parse` when no line parses, `partial write` when some values were rejected. `Content-Encoding: gzip` is accepted.',
          querystring: LineProtocolQuery,
          response: { 204: Type.Null(), '4xx': ErrorBody, '5xx': ErrorBody },
        },
      },
      async (request, reply) => {
        const thing = await requireDevice(service, deviceToken(request), 'ingest.badToken', {
          userPassword: true,
        });
        const precision: Precision = request.query.precision ?? 'ns';
        const outcome = await writeLines(service, thing, request, precision);
        if (outcome.status === 204) return reply.status(204).send(null);
        return reply.status(outcome.status).send({ code: 'BAD_REQUEST', message: outcome.message });
      },
    );
  });

  app.get(
    '/telemetry/stats',
    {
      // Device management's concern: admins, and roles granting the device list.
      config: { resource: '/device_management/nodes' },
      schema: {
        tags,
        summary:
          'Ingest counters since start: received, accepted, rejected by reason, last error, MQTT state',
        response: { 200: Data(IngestStats), ...{ '4xx': ErrorBody, '5xx': ErrorBody } },
      },
    },
    async () => ({ data: { ...service.counters(), mqtt: mqtt.status() } }),
  );
};
