import { gunzip } from 'node:zlib';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Data,
  ErrorBody,
  IngestResult,
  IngestStats,
  LineProtocolQuery,
  TelemetryBatch,
} from '@kilowatch/contract';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../errors.ts';
import { type LineError, type Precision, parseLineProtocol } from './line-protocol.ts';
import type { MqttIngest } from './mqtt.ts';
import type { Device, IngestService } from './service.ts';

const tags = ['telemetry'];
/** Line-protocol bodies (compressed) up to this size; Telegraf's default batch is far smaller. */
const LINE_BODY_LIMIT = 16 * 1024 * 1024;
/** A gzip body may expand to at most this (so a small bomb cannot exhaust memory). */
const MAX_INFLATED = 64 * 1024 * 1024;
/** At most this many line errors are named in a 400's message. */
const NAMED_ERRORS = 5;

/**
 * The device access token of a call: `x-Device-Token: <token>`, `Authorization: Bearer <token>`
 * or, as InfluxDB clients send it, `Authorization: Token <token>`.
 */
export function deviceToken(request: FastifyRequest): string | undefined {
  const header = request.headers['x-device-token'];
  const direct = Array.isArray(header) ? header[0] : header;
  if (direct?.trim()) return direct.trim();
  const match = request.headers.authorization?.match(/^(?:Bearer|Token)\s+(\S+)\s*$/i);
  return match?.[1];
}

const IngestRejected = Type.Object({ code: Type.String(), message: Type.String(), data: IngestResult });

/**
 * Telemetry ingest over HTTP (docs/ingest.md): JSON batches and InfluxDB line protocol, both
 * authenticated by the device's access token (public for the user-token hook), and the counters.
 */
export const ingestRoutes: FastifyPluginAsyncTypebox<{ service: IngestService; mqtt: MqttIngest }> = async (
  app,
  { service, mqtt },
) => {
  async function device(request: FastifyRequest): Promise<Device> {
    const token = deviceToken(request);
    const found = token ? await service.deviceByToken(token) : undefined;
    if (!found) {
      if (token) service.refused('http', null, 'unknown thing', 'unknown access token');
      throw new AppError('UNAUTHORIZED', 401, {}, { message: 'ingest.badToken' });
    }
    return found;
  }

  app.post(
    '/telemetry',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Write telemetry of the device whose access token is sent (JSON, one message or a batch)',
        description:
          'Token in `x-Device-Token` or `Authorization: Bearer`. Each value is checked on its own: bad ones are listed in `rejected` with their message index, the rest are written. 200 once the accepted points are durable; 400 when every value was rejected; 401 for an unknown token.',
        body: TelemetryBatch,
        response: { 200: Data(IngestResult), 400: IngestRejected, '4xx': ErrorBody, '5xx': ErrorBody },
      },
      // Values are checked one by one by the service, so one bad value never fails the request.
      validatorCompiler: () => () => true,
    },
    async (request, reply) => {
      const thing = await device(request);
      const result = await service.accept(thing, service.fromJson(request.body), 'http');
      if (result.accepted === 0 && result.rejected.length > 0) {
        return reply.status(400).send({
          code: 'BAD_REQUEST',
          message: `every value was rejected (${result.rejected.length})`,
          data: result,
        });
      }
      return { data: result };
    },
  );

  await app.register(async (scope) => {
    // Line protocol arrives as text/plain (Telegraf), often gzip-compressed, or with no type at all.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: LINE_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );

    scope.post(
      '/v2/write',
      {
        config: { public: true },
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
        const thing = await device(request);
        let body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const encoding = request.headers['content-encoding']?.trim().toLowerCase();
        if (encoding === 'gzip') {
          try {
            body = await new Promise<Buffer>((resolve, reject) =>
              gunzip(body, { maxOutputLength: MAX_INFLATED }, (error, out) =>
                error ? reject(error) : resolve(out),
              ),
            );
          } catch (error) {
            return reply.status(400).send({
              code: 'BAD_REQUEST',
              message: `unable to decompress the gzip body: ${(error as Error).message}`,
            });
          }
        } else if (encoding && encoding !== 'identity') {
          return reply
            .status(415)
            .send({ code: 'BAD_REQUEST', message: `unsupported Content-Encoding "${encoding}"` });
        }
        const precision = ((request.query as { precision?: Precision }).precision ?? 'ns') as Precision;
        const parsed = parseLineProtocol(body.toString('utf8'), precision);
        const describe = (errors: readonly LineError[]) =>
          errors
            .slice(0, NAMED_ERRORS)
            .map((e) => `line ${e.line}: ${e.message}`)
            .join('; ') + (errors.length > NAMED_ERRORS ? `; and ${errors.length - NAMED_ERRORS} more` : '');
        if (parsed.lines.length === 0 && parsed.errors.length > 0) {
          service.refused('line', thing.identifier, 'bad message', describe(parsed.errors));
          return reply
            .status(400)
            .send({ code: 'BAD_REQUEST', message: `unable to parse: ${describe(parsed.errors)}` });
        }
        for (const e of parsed.errors)
          service.refused('line', thing.identifier, 'bad message', `line ${e.line}: ${e.message}`);
        const result = await service.accept(thing, service.fromLines(parsed.lines), 'line');
        const problems: LineError[] = [
          ...parsed.errors,
          ...result.rejected.map((r) => ({
            line: r.index,
            message: r.metric ? `${r.reason} "${r.metric}"` : r.reason,
          })),
        ].sort((a, b) => a.line - b.line);
        if (problems.length === 0) return reply.status(204).send();
        const prefix = result.accepted > 0 ? 'partial write' : 'nothing written';
        return reply.status(400).send({ code: 'BAD_REQUEST', message: `${prefix}: ${describe(problems)}` });
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
