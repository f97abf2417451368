import { gunzipSync } from 'node:zlib';
import { type AbilityRule, BatchChecker, type Checked, checkItems, countValues } from './check.ts';
import { type LineError, type Precision, readLineProtocol } from './line-protocol.ts';
import { decodeJson, telemetryItems } from './payload.ts';

/**
 * How a body is written: ThingsBoard JSON (HTTP, MQTT) or InfluxDB line protocol; `gzip` when it
 * came with `Content-Encoding: gzip` (inflated where it is parsed: a parse worker).
 */
export type BodyFormat = ({ kind: 'json' } | { kind: 'line'; precision: Precision }) & { gzip?: boolean };

/** A gzip body may expand to at most this (so a small bomb cannot exhaust memory). */
const MAX_INFLATED = 64 * 1024 * 1024;

/** Everything a body's parsing and checking needs: plain data, so it crosses to a worker. */
export interface ParseJob {
  body: Uint8Array;
  format: BodyFormat;
  abilities: [key: string, rule: AbilityRule][];
  thingId: number;
  arrival: number;
  oldest: number;
  maxBatch: number;
}

export type Parsed =
  /** A gzip body that does not inflate (corrupt, or larger than MAX_INFLATED). */
  | { kind: 'undecompressible'; detail: string }
  /** JSON that does not parse, or an empty body. */
  | { kind: 'undecodable'; error: 'empty' | 'invalid'; detail?: string }
  /** Line protocol of which no line parses. */
  | { kind: 'no lines'; errors: LineError[] }
  /** `checked` is null when the body holds more than maxBatch values (`total`). */
  | { kind: 'values'; total: number; lineErrors: LineError[]; checked: Checked | null };

/** Decodes, parses and checks a body (on the main thread for small bodies, else in a parse worker). */
export function parseBody(job: ParseJob): Parsed {
  let body = Buffer.from(job.body.buffer, job.body.byteOffset, job.body.byteLength);
  if (job.format.gzip) {
    try {
      body = gunzipSync(body, { maxOutputLength: MAX_INFLATED });
    } catch (error) {
      return { kind: 'undecompressible', detail: (error as Error).message };
    }
  }
  const abilities = new Map(job.abilities);
  if (job.format.kind === 'line')
    return checkLines(body.toString('utf8'), job.format.precision, abilities, job);
  const decoded = decodeJson(body);
  if (!decoded.ok) return { kind: 'undecodable', error: decoded.error, detail: decoded.detail };
  const items = telemetryItems(decoded.value);
  const total = countValues(items);
  if (total > job.maxBatch) return { kind: 'values', total, lineErrors: [], checked: null };
  return {
    kind: 'values',
    total,
    lineErrors: [],
    checked: checkItems(items, abilities, job.thingId, job.arrival, job.oldest),
  };
}

/**
 * Line protocol, each line's values checked as it is read (no message objects between): past
 * `maxBatch` values the rest are only counted.
 */
function checkLines(
  text: string,
  precision: Precision,
  abilities: ReadonlyMap<string, AbilityRule>,
  job: ParseJob,
): Parsed {
  const checker = new BatchChecker(abilities, job.thingId, job.arrival, job.oldest);
  const lineErrors: LineError[] = [];
  let lines = 0;
  let total = 0;
  readLineProtocol(text, precision, {
    line(l) {
      lines++;
      total += l.count;
      if (total > job.maxBatch) return;
      const at = checker.time(l.ts);
      for (let f = 0; f < l.count; f++) {
        const key = l.keys[f] as string;
        const other = l.others[f];
        if (at === undefined) checker.refuse(l.line, key, 'bad timestamp');
        else if (other === undefined) checker.number(l.line, at, key, l.measurement, l.numbers[f] as number);
        else checker.value(l.line, at, key, l.measurement, other);
      }
    },
    error(line, message) {
      lineErrors.push({ line, message });
    },
  });
  if (lines === 0 && lineErrors.length > 0) return { kind: 'no lines', errors: lineErrors };
  if (total > job.maxBatch) return { kind: 'values', total, lineErrors, checked: null };
  return { kind: 'values', total, lineErrors, checked: checker.finish() };
}
