import type { FastifyRequest } from 'fastify';
import { badGzip, encodedBody } from './device-http.ts';
import type { LineError, Precision } from './line-protocol.ts';
import type { Device, IngestService } from './service.ts';

/** At most this many line errors are named in a 400's message. */
const NAMED_ERRORS = 5;

/** 204 when every line was written; else the status and InfluxDB-style English message. */
export type LineWrite = { status: 204 } | { status: 400 | 415; message: string };

const describe = (errors: readonly LineError[]) =>
  errors
    .slice(0, NAMED_ERRORS)
    .map((e) => `line ${e.line}: ${e.message}`)
    .join('; ') + (errors.length > NAMED_ERRORS ? `; and ${errors.length - NAMED_ERRORS} more` : '');

/**
 * Writes a line-protocol body (InfluxDB v1 and v2 write APIs alike) as `thing`'s data. Messages
 * use InfluxDB's words (`unable to parse`, `partial write`): Telegraf reads them to decide that
 * resending would not help.
 */
export async function writeLines(
  service: IngestService,
  thing: Device,
  request: FastifyRequest,
  precision: Precision,
): Promise<LineWrite> {
  const encoded = encodedBody(request);
  if (!encoded.ok) return encoded;
  const outcome = await service.acceptBody(
    thing,
    encoded.body,
    { kind: 'line', precision, gzip: encoded.gzip },
    'line',
  );
  if (outcome.kind === 'undecompressible') return { status: 400, message: badGzip(outcome.detail) };
  if (outcome.kind === 'no lines') {
    service.refused('line', thing.identifier, 'bad message', describe(outcome.errors));
    return { status: 400, message: `unable to parse: ${describe(outcome.errors)}` };
  }
  // Only JSON bodies are undecodable; line protocol names each bad line instead.
  if (outcome.kind === 'undecodable') return { status: 400, message: 'unable to parse' };
  const { result, lineErrors } = outcome;
  const problems: LineError[] = [
    ...lineErrors,
    ...result.rejected.map((r) => ({
      line: r.index,
      message: r.metric ? `${r.reason} "${r.metric}"` : r.reason,
    })),
  ].sort((a, b) => a.line - b.line);
  if (problems.length === 0) return { status: 204 };
  const prefix = result.accepted > 0 ? 'partial write' : 'nothing written';
  return { status: 400, message: `${prefix}: ${describe(problems)}` };
}
