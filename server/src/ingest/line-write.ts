import type { FastifyRequest } from 'fastify';
import { inflatedBody } from './device-http.ts';
import { type LineError, type Precision, parseLineProtocol } from './line-protocol.ts';
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
  const inflated = await inflatedBody(request);
  if (!inflated.ok) return inflated;
  const parsed = parseLineProtocol(inflated.body.toString('utf8'), precision);
  if (parsed.lines.length === 0 && parsed.errors.length > 0) {
    service.refused('line', thing.identifier, 'bad message', describe(parsed.errors));
    return { status: 400, message: `unable to parse: ${describe(parsed.errors)}` };
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
  if (problems.length === 0) return { status: 204 };
  const prefix = result.accepted > 0 ? 'partial write' : 'nothing written';
  return { status: 400, message: `${prefix}: ${describe(problems)}` };
}
