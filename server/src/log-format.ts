import { Writable } from 'node:stream';

/** pino's numeric levels, as a person reads them. */
const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};
const COLOURS: Record<number, string> = { 10: '90', 20: '90', 30: '36', 40: '33', 50: '31', 60: '35' };
/** Fields every line has, or that the line already shows in its own place. */
const SHOWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'module', 'err', 'reqId']);

const value = (v: unknown): string => (typeof v === 'string' && !/\s/.test(v) ? v : JSON.stringify(v));

/**
 * One pino JSON line as `12:03:04 INFO  [mqtt] MQTT broker listening port=1883`, and an error's
 * stack below it. Lines that are not JSON pass through as they are.
 */
export function formatLogLine(line: string, colour: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const level = Number(entry.level);
  const time = new Date(Number(entry.time)).toTimeString().slice(0, 8);
  const label = LEVELS[level] ?? String(entry.level);
  const tag = colour ? `\u001b[${COLOURS[level] ?? '0'}m${label}\u001b[0m` : label;
  const module = entry.module ? `[${String(entry.module)}] ` : '';
  const fields = Object.entries(entry)
    .filter(([key]) => !SHOWN.has(key))
    .map(([key, v]) => `${key}=${value(v)}`)
    .join(' ');
  const err = entry.err as { stack?: string; message?: string } | undefined;
  const stack = err ? `\n${err.stack ?? err.message ?? JSON.stringify(err)}` : '';
  return `${time} ${tag} ${module}${String(entry.msg ?? '')}${fields ? ` ${fields}` : ''}${stack}`;
}

/**
 * A log destination for a terminal: pino's JSON lines, written for a person. Where the output
 * is not a terminal (a file, journald, a collector), the server keeps writing JSON.
 */
export function prettyLogStream(out: NodeJS.WriteStream): Writable {
  const colour = out.hasColors?.() ?? false;
  let pending = '';
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      pending += chunk.toString();
      let end = pending.indexOf('\n');
      while (end >= 0) {
        out.write(`${formatLogLine(pending.slice(0, end), colour)}\n`);
        pending = pending.slice(end + 1);
        end = pending.indexOf('\n');
      }
      done();
    },
  });
}
