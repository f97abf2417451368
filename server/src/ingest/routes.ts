import {
  lineProtocolWrite,
  telemetryStats,
  telemetryWrite,
  telemetryWriteByPathToken,
} from '@kilowatch/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { translate } from '../i18n/index.ts';
import { languageOf } from '../plugins/error-handler.ts';
import { route } from '../plugins/route.ts';
import {
  acceptRawBodies,
  badGzip,
  DEVICE_ROUTE,
  deviceToken,
  encodedBody,
  requireDevice,
} from './device-http.ts';
import type { Precision } from './line-protocol.ts';
import { writeLines } from './line-write.ts';
import type { MqttIngest } from './mqtt.ts';
import type { Device, IngestService } from './service.ts';

/** Line-protocol bodies (compressed) up to this size; Telegraf's default batch is far smaller. */
const LINE_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * Telemetry ingest over HTTP (docs/ingest.md): JSON in every ThingsBoard shape (also on
 * ThingsBoard's own device URL) and InfluxDB v2 line protocol, authenticated by the device's
 * access token, and the counters.
 */
export const ingestRoutes: FastifyPluginAsync<{ service: IngestService; mqtt: MqttIngest }> = async (
  app,
  { service, mqtt },
) => {
  /** Decodes and writes a JSON body of `thing`: a bad body is the device's fault, a 400 with why. */
  async function acceptJson(request: FastifyRequest, reply: FastifyReply, thing: Device) {
    const encoded = encodedBody(request);
    if (!encoded.ok)
      return reply.status(encoded.status).send({ code: 'BAD_REQUEST', message: encoded.message });
    const outcome = await service.acceptBody(
      thing,
      encoded.body,
      { kind: 'json', gzip: encoded.gzip },
      'http',
    );
    if (outcome.kind === 'undecompressible')
      return reply.status(400).send({ code: 'BAD_REQUEST', message: badGzip(outcome.detail) });
    if (outcome.kind !== 'written') {
      const error = outcome.kind === 'undecodable' ? outcome.error : 'invalid';
      const detail = outcome.kind === 'undecodable' ? outcome.detail : undefined;
      service.refused('http', thing.identifier, 'bad message', detail ?? 'empty body');
      throw new AppError(
        'BAD_REQUEST',
        400,
        { reason: detail ?? '' },
        { message: error === 'empty' ? 'ingest.emptyBody' : 'ingest.badJson' },
      );
    }
    const { result } = outcome;
    if (result.accepted === 0 && result.rejected.length > 0) {
      return reply.status(400).send({
        code: 'BAD_REQUEST',
        message: translate(languageOf(request), 'ingest.allRejected', { count: result.rejected.length }),
        data: result,
      });
    }
    return result;
  }

  await app.register(async (scope) => {
    // Devices send JSON as application/json, text/plain or with no type at all.
    acceptRawBodies(scope);

    // The body is decoded and checked value by value by the handler, so one bad value never fails the request.
    const ownValidator = { config: DEVICE_ROUTE, validatorCompiler: () => () => true };
    route(scope, telemetryWrite, ownValidator, async (request, reply) =>
      acceptJson(request, reply, await requireDevice(service, deviceToken(request), 'ingest.badToken')),
    );
    // As above; the path token is any string, checked against the devices.
    route(scope, telemetryWriteByPathToken, ownValidator, async (request, reply) =>
      acceptJson(request, reply, await requireDevice(service, request.params.token, 'ingest.badPathToken')),
    );
  });

  await app.register(async (scope) => {
    // Line protocol arrives as text/plain (Telegraf), often gzip-compressed, or with no type at all.
    acceptRawBodies(scope, LINE_BODY_LIMIT);

    route(scope, lineProtocolWrite, { config: DEVICE_ROUTE }, async (request, reply) => {
      const thing = await requireDevice(service, deviceToken(request), 'ingest.badToken', {
        userPassword: true,
      });
      const precision: Precision = request.query.precision ?? 'ns';
      const outcome = await writeLines(service, thing, request, precision);
      if (outcome.status === 204) return reply.status(204).send(null);
      return reply.status(outcome.status).send({ code: 'BAD_REQUEST', message: outcome.message });
    });
  });

  // Device management's concern: admins, and roles granting the device list.
  route(app, telemetryStats, { config: { resource: '/device_management/nodes' } }, async () => ({
    ...service.counters(),
    mqtt: mqtt.status(),
  }));
};
