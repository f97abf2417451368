import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import type { MessageKey } from '../i18n/index.ts';
import type { Device, IngestService } from './service.ts';

/**
 * What every device-facing HTTP route shares: public for the user-token hook (each route checks
 * a device token of its own), and answers in English to clients that send no Accept-Language.
 */
export const DEVICE_ROUTE = { public: true, defaultLanguage: 'en' } as const;

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

/**
 * The token as InfluxDB 1.x clients send credentials too: the basic-auth password (Telegraf's
 * `username`/`password`), or `?p=` (the `influx` npm package, Node-RED's v1 nodes). The user
 * name is ignored, as InfluxDB 2.x's 1.x compatibility API does with tokens.
 */
export function influxToken(request: FastifyRequest): string | undefined {
  const token = deviceToken(request);
  if (token) return token;
  const basic = request.headers.authorization?.match(/^Basic\s+(\S+)\s*$/i)?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const password = decoded.slice(decoded.indexOf(':') + 1);
    if (decoded.includes(':') && password) return password;
  }
  const { p } = request.query as { p?: unknown };
  return typeof p === 'string' && p ? p : undefined;
}

/**
 * The device owning `token`; a 401 saying where the token goes (`message`) otherwise. With
 * `userPassword`, `user:token` is taken too: InfluxDB 1.8's 2.x-compatible API reads
 * `Authorization: Token user:password`, which Node-RED's "1.8-flux" influxdb nodes send.
 */
export async function requireDevice(
  service: IngestService,
  token: string | undefined,
  message: MessageKey,
  { userPassword = false } = {},
): Promise<Device> {
  let found = token ? await service.deviceByToken(token) : undefined;
  const colon = token?.indexOf(':') ?? -1;
  if (!found && userPassword && token && colon >= 0 && colon < token.length - 1) {
    found = await service.deviceByToken(token.slice(colon + 1));
  }
  if (!found) {
    if (token) service.refused('http', null, 'unknown thing', 'unknown access token');
    throw new AppError('UNAUTHORIZED', 401, {}, { message });
  }
  return found;
}

/**
 * Takes every body of `scope` as raw bytes whatever its Content-Type: devices send JSON as
 * text/plain or with no type, Telegraf sends line protocol gzip-compressed. The routes parse
 * them themselves, after the token check, so a bad body is a 400 with the reason.
 */
export function acceptRawBodies(scope: FastifyInstance, bodyLimit?: number): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, body, done) =>
    done(null, body),
  );
}

export type Encoded = { ok: true; body: Buffer; gzip: boolean } | { ok: false; status: 415; message: string };

/**
 * The request's body and whether it is gzip-compressed (`Content-Encoding: gzip`); inflating it is
 * the parse worker's (service.acceptBody), off the main thread.
 */
export function encodedBody(request: FastifyRequest): Encoded {
  const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  const encoding = request.headers['content-encoding']?.trim().toLowerCase();
  if (!encoding || encoding === 'identity') return { ok: true, body, gzip: false };
  if (encoding !== 'gzip') {
    return { ok: false, status: 415, message: `unsupported Content-Encoding "${encoding}"` };
  }
  return { ok: true, body, gzip: true };
}

/** The 400's message for a gzip body that does not inflate. */
export const badGzip = (detail: string) => `unable to decompress the gzip body: ${detail}`;
