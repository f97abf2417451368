/**
 * InfluxDB line protocol (v2 write API), as Telegraf's `outputs.influxdb_v2` and Node-RED send it:
 *
 *     measurement[,tag=value…] field=value[,field=value…] [timestamp]
 *
 * Measurement: `\,` and `\ ` escape a comma and a space. Tag keys, tag values and field keys:
 * `\,` `\=` `\ `. String fields are double-quoted with `\"` and `\\`. Numbers are floats
 * (`1`, `-1.5`, `2e3`), integers (`12i`) or unsigned (`12u`); booleans t/T/true/True/TRUE and
 * f/F/false/False/FALSE. The timestamp is an integer in the request's precision. Blank lines and
 * lines starting with `#` are skipped. A newline always ends a line (InfluxDB forbids raw newlines
 * in values too).
 */

export type Precision = 'ns' | 'us' | 'ms' | 's' | 'm' | 'h';

type FieldValue = number | boolean | string;

interface Line {
  /** 1-based line number in the body. */
  line: number;
  measurement: string;
  tags: Record<string, string>;
  fields: [key: string, value: FieldValue][];
  /** ms since the epoch (sub-millisecond digits are cut), or undefined when the line has none. */
  ts: number | undefined;
}

export interface LineError {
  line: number;
  message: string;
}

export interface ParseResult {
  lines: Line[];
  errors: LineError[];
}

/** Divisor from the precision's unit to ms (BigInt, so ns timestamps beyond 2^53 stay exact). */
const TO_MS: Record<Precision, { mul: bigint; div: bigint }> = {
  ns: { mul: 1n, div: 1_000_000n },
  us: { mul: 1n, div: 1_000n },
  ms: { mul: 1n, div: 1n },
  s: { mul: 1000n, div: 1n },
  // InfluxDB 1.x also takes minutes and hours.
  m: { mul: 60_000n, div: 1n },
  h: { mul: 3_600_000n, div: 1n },
};

const TRUE = new Set(['t', 'T', 'true', 'True', 'TRUE']);
const FALSE = new Set(['f', 'F', 'false', 'False', 'FALSE']);
const FLOAT = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const INTEGER = /^[-+]?\d+i$/;
const UNSIGNED = /^\d+u$/;

class ParseError extends Error {}

const BACKSLASH = 92;
const SPACE = 32;
const COMMA = 44;
const TAB = 9;
const EQUALS = 61;
const HASH = 35;

/** Digits a sub-ms precision's timestamp has beyond the ms (cut toward zero, as BigInt division does). */
const SUB_MS: Partial<Record<Precision, number>> = { ns: 6, us: 3 };

/**
 * A timestamp (`-?\d{1,19}`) in ms: as a double when the digits kept are few enough to be exact
 * (15), which avoids a BigInt per line; else by BigInt.
 */
function toMs(raw: string, precision: Precision): number {
  const cut = SUB_MS[precision] ?? 0;
  const digits = raw.length - (raw.charCodeAt(0) === 45 ? 1 : 0);
  if (digits - cut <= 15) {
    if (digits <= cut) return 0;
    const { mul } = TO_MS[precision];
    return Number(raw.slice(0, raw.length - cut)) * Number(mul) + 0;
  }
  const { mul, div } = TO_MS[precision];
  return Number((BigInt(raw) * mul) / div);
}

/** A cursor over one line. */
class Scanner {
  i = 0;
  constructor(readonly s: string) {}
  get done(): boolean {
    return this.i >= this.s.length;
  }
  peek(): string {
    return this.s[this.i] ?? '';
  }

  /**
   * Reads up to the first unescaped character of `stops`; a backslash escapes the characters of
   * `escapable` (other backslashes are kept literally, as InfluxDB does).
   */
  token(stops: string, escapable: string): string {
    // Most tokens hold no backslash: found by char codes and cut once, not built char by char.
    const s = this.s;
    const from = this.i;
    let j = from;
    for (; j < s.length; j++) {
      const c = s.charCodeAt(j);
      if (c === BACKSLASH) break;
      if (c === SPACE || c === COMMA || c === TAB || c === EQUALS) {
        if (stops.includes(s[j] as string)) {
          this.i = j;
          return s.slice(from, j);
        }
      }
    }
    if (j === s.length) {
      this.i = j;
      return s.slice(from);
    }
    let out = s.slice(from, j);
    this.i = j;
    while (this.i < this.s.length) {
      const c = this.s[this.i] as string;
      if (c === '\\' && this.i + 1 < this.s.length && escapable.includes(this.s[this.i + 1] as string)) {
        out += this.s[this.i + 1];
        this.i += 2;
        continue;
      }
      if (stops.includes(c)) break;
      out += c;
      this.i++;
    }
    return out;
  }

  skipSpaces(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.i++;
  }
}

function parseFieldValue(sc: Scanner, key: string): FieldValue {
  if (sc.peek() === '"') {
    sc.i++;
    let out = '';
    for (;;) {
      if (sc.done) throw new ParseError(`unterminated string value of field "${key}"`);
      const c = sc.s[sc.i] as string;
      if (c === '\\' && (sc.s[sc.i + 1] === '"' || sc.s[sc.i + 1] === '\\')) {
        out += sc.s[sc.i + 1];
        sc.i += 2;
        continue;
      }
      sc.i++;
      if (c === '"') return out;
      out += c;
    }
  }
  const raw = sc.token(', \t', '');
  if (raw === '') throw new ParseError(`field "${key}" has no value`);
  // The spellings are disjoint (a boolean starts with a letter, a number with a digit, a sign or a
  // dot, an integer ends in i or u), so numbers, most values, are tested first.
  const first = raw.charCodeAt(0);
  if ((first >= 48 && first <= 57) || first === 45 || first === 43 || first === 46) {
    if (FLOAT.test(raw)) {
      const value = Number(raw);
      if (!Number.isFinite(value)) throw new ParseError(`field "${key}": number out of range`);
      return value;
    }
    if (INTEGER.test(raw) || UNSIGNED.test(raw)) {
      const value = Number(raw.slice(0, -1));
      if (!Number.isFinite(value)) throw new ParseError(`field "${key}": integer out of range`);
      return value;
    }
  } else {
    if (TRUE.has(raw)) return true;
    if (FALSE.has(raw)) return false;
  }
  throw new ParseError(`field "${key}": invalid value "${raw.slice(0, 40)}"`);
}

function parseLine(text: string, number: number, precision: Precision): Line {
  const sc = new Scanner(text);
  const measurement = sc.token(', \t', ', ');
  if (measurement === '') throw new ParseError('missing measurement');
  const tags: Record<string, string> = {};
  while (sc.peek() === ',') {
    sc.i++;
    const key = sc.token('=, \t', ',= ');
    if (sc.peek() !== '=' || key === '') throw new ParseError(`invalid tag "${key}"`);
    sc.i++;
    const value = sc.token(', \t', ',= ');
    if (value === '') throw new ParseError(`tag "${key}" has no value`);
    tags[key] = value;
  }
  if (sc.peek() !== ' ' && sc.peek() !== '\t') throw new ParseError('missing fields');
  sc.skipSpaces();
  const fields: [string, FieldValue][] = [];
  for (;;) {
    const key = sc.token('=, \t', ',= ');
    if (key === '' || sc.peek() !== '=') throw new ParseError(`invalid field "${key}"`);
    sc.i++;
    fields.push([key, parseFieldValue(sc, key)]);
    if (sc.peek() === ',') {
      sc.i++;
      continue;
    }
    break;
  }
  let ts: number | undefined;
  if (!sc.done) {
    if (sc.peek() !== ' ' && sc.peek() !== '\t')
      throw new ParseError(`unexpected "${sc.s.slice(sc.i, sc.i + 20)}" after the fields`);
    sc.skipSpaces();
    const raw = sc.token(' \t', '');
    sc.skipSpaces();
    if (!sc.done) throw new ParseError(`unexpected "${sc.s.slice(sc.i, sc.i + 20)}" after the timestamp`);
    if (raw !== '') {
      if (!/^-?\d{1,19}$/.test(raw)) throw new ParseError(`invalid timestamp "${raw.slice(0, 30)}"`);
      ts = toMs(raw, precision);
      if (!Number.isSafeInteger(ts)) throw new ParseError(`timestamp "${raw}" out of range`);
    }
  }
  return { line: number, measurement, tags, fields, ts };
}

/**
 * Parses a line-protocol body; each line either parses or yields an error with its number, so
 * one bad line does not lose the others.
 * @example parseLineProtocol('cpu,host=a usage=1.5,n=3i 1700000000000000000').lines[0].ts // 1700000000000
 */
export function parseLineProtocol(body: string, precision: Precision = 'ns'): ParseResult {
  const lines: Line[] = [];
  const errors: LineError[] = [];
  // Line by line through the body (no array of every line first), leading blanks and a CR cut.
  for (let n = 1, at = 0; at <= body.length; n++) {
    let end = body.indexOf('\n', at);
    if (end < 0) end = body.length;
    let from = at;
    at = end + 1;
    if (end > from && body.charCodeAt(end - 1) === 13) end--;
    while (from < end && (body.charCodeAt(from) === SPACE || body.charCodeAt(from) === TAB)) from++;
    if (from === end || body.charCodeAt(from) === HASH) continue;
    try {
      lines.push(parseLine(body.slice(from, end), n, precision));
    } catch (error) {
      if (!(error instanceof ParseError)) throw error;
      errors.push({ line: n, message: error.message });
    }
  }
  return { lines, errors };
}
