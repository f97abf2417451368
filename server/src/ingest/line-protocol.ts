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
 *
 * The reader hands each line to a sink in one reused record (numbers in a Float64Array, names
 * reused from the previous line when they repeat), so a 50,000-value body makes no object per line
 * or per value: this parse is the line-protocol path's bound (issue 24).
 */

export type Precision = 'ns' | 'us' | 'ms' | 's' | 'm' | 'h';

export interface LineError {
  line: number;
  message: string;
}

/** One parsed line. The reader reuses it (and its arrays) for the next line: copy what you keep. */
interface ParsedLine {
  /** 1-based line number in the body. */
  line: number;
  measurement: string;
  /** ms since the epoch (sub-millisecond digits are cut), or undefined when the line has none. */
  ts: number | undefined;
  /** Fields: `keys[f]` for f < count. */
  count: number;
  keys: string[];
  /** A field's number (floats, integers and unsigned alike) when `others[f]` is undefined. */
  numbers: Float64Array;
  /** A field's string or boolean; undefined when it is a number. */
  others: (string | boolean | undefined)[];
  /** Tags as [key, value, key, value…], filled only for a sink that asks (`tags: true`). */
  tags: string[];
}

export interface LineSink {
  /** Whether to read tags into `ParsedLine.tags` (else they are only checked: nothing uses them). */
  tags?: boolean;
  line(parsed: ParsedLine): void;
  error(line: number, message: string): void;
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

/** Digits a sub-ms precision's timestamp has beyond the ms (cut toward zero, as BigInt division does). */
const SUB_MS: Partial<Record<Precision, number>> = { ns: 6, us: 3 };

const TRUE = new Set(['t', 'T', 'true', 'True', 'TRUE']);
const FALSE = new Set(['f', 'F', 'false', 'False', 'FALSE']);
const FLOAT = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const INTEGER = /^[-+]?\d+i$/;
const UNSIGNED = /^\d+u$/;

/**
 * Powers of ten a double holds exactly: an integer below 2^53 divided by one of them is the
 * correctly rounded value of the decimal (Clinger's fast path), so most values need no `Number()`.
 */
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);
/** Significant digits an integer mantissa may have and stay exact. */
const EXACT_DIGITS = 15;

const BACKSLASH = 92;
const QUOTE = 34;
const HASH = 35;
const MINUS = 45;
const PLUS = 43;
const DOT = 46;
const ZERO = 48;
const NINE = 57;

/** Characters that end a token, as bits (every stop set is made of these four). */
const SPACE_BIT = 1;
const COMMA_BIT = 2;
const TAB_BIT = 4;
const EQUALS_BIT = 8;
const WHITE = SPACE_BIT | TAB_BIT;
const AFTER_NAME = SPACE_BIT | COMMA_BIT | TAB_BIT;
const AFTER_KEY = AFTER_NAME | EQUALS_BIT;

function bitOf(c: number): number {
  if (c === 32) return SPACE_BIT;
  if (c === 44) return COMMA_BIT;
  if (c === 9) return TAB_BIT;
  if (c === 61) return EQUALS_BIT;
  return 0;
}

const isDigit = (c: number) => c >= ZERO && c <= NINE;

class ParseError extends Error {}

/** A cursor over one body, reading one line (`[i, end)`) at a time into a reused record. */
class LineReader {
  i = 0;
  end = 0;
  readonly out: ParsedLine = {
    line: 0,
    measurement: '',
    ts: undefined,
    count: 0,
    keys: [],
    numbers: new Float64Array(16),
    others: [],
    tags: [],
  };

  constructor(
    readonly s: string,
    private readonly precision: Precision,
    private readonly withTags: boolean,
  ) {}

  private peek(): number {
    return this.i < this.end ? this.s.charCodeAt(this.i) : -1;
  }

  /**
   * Reads up to the first unescaped character of `stops`; a backslash escapes the characters of
   * `escapable` (other backslashes are kept literally, as InfluxDB does). `same`, a string this
   * token often repeats (the previous line's), is returned instead of a new copy when equal.
   */
  private token(stops: number, escapable: number, same?: string): string {
    const s = this.s;
    const from = this.i;
    const end = this.end;
    let j = from;
    for (; j < end; j++) {
      const c = s.charCodeAt(j);
      if (c === BACKSLASH) break;
      if (bitOf(c) & stops) break;
    }
    if (j === end || s.charCodeAt(j) !== BACKSLASH) {
      this.i = j;
      if (same !== undefined && same.length === j - from) {
        let k = 0;
        while (k < same.length && same.charCodeAt(k) === s.charCodeAt(from + k)) k++;
        if (k === same.length) return same;
      }
      return s.slice(from, j);
    }
    let out = s.slice(from, j);
    let i = j;
    while (i < end) {
      const c = s.charCodeAt(i);
      if (c === BACKSLASH && i + 1 < end && bitOf(s.charCodeAt(i + 1)) & escapable) {
        out += s[i + 1];
        i += 2;
        continue;
      }
      if (bitOf(c) & stops) break;
      out += s[i];
      i++;
    }
    this.i = i;
    return out;
  }

  /** Like `token`, without making the string: whether it held anything. */
  private skip(stops: number, escapable: number): boolean {
    const s = this.s;
    const from = this.i;
    let i = from;
    while (i < this.end) {
      const c = s.charCodeAt(i);
      if (c === BACKSLASH && i + 1 < this.end && bitOf(s.charCodeAt(i + 1)) & escapable) i += 2;
      else if (bitOf(c) & stops) break;
      else i++;
    }
    this.i = i;
    return i > from;
  }

  private skipSpaces(): void {
    while (bitOf(this.peek()) & WHITE) this.i++;
  }

  /** The text from `at` to the line's end, cut for a message. */
  private rest(at: number, length: number): string {
    return this.s.slice(at, Math.min(this.end, at + length));
  }

  read(number: number, from: number, end: number): ParsedLine {
    this.i = from;
    this.end = end;
    const out = this.out;
    out.line = number;
    out.measurement = this.token(AFTER_NAME, SPACE_BIT | COMMA_BIT, out.measurement);
    if (out.measurement === '') throw new ParseError('missing measurement');
    this.tags();
    if (!(bitOf(this.peek()) & WHITE)) throw new ParseError('missing fields');
    this.skipSpaces();
    this.fields();
    out.ts = undefined;
    if (this.i < end) {
      if (!(bitOf(this.peek()) & WHITE))
        throw new ParseError(`unexpected "${this.rest(this.i, 20)}" after the fields`);
      this.skipSpaces();
      const at = this.i;
      out.ts = this.timestamp();
      const written = this.i;
      this.skipSpaces();
      if (this.i < end) throw new ParseError(`unexpected "${this.rest(this.i, 20)}" after the timestamp`);
      if (out.ts !== undefined && !Number.isSafeInteger(out.ts))
        throw new ParseError(`timestamp "${this.s.slice(at, written)}" out of range`);
    }
    return out;
  }

  private tags(): void {
    const tags = this.out.tags;
    tags.length = 0;
    while (this.peek() === 44) {
      this.i++;
      const at = this.i;
      const escapable = COMMA_BIT | EQUALS_BIT | SPACE_BIT;
      if (!this.withTags) {
        if (this.skip(AFTER_KEY, escapable) && this.peek() === 61) {
          this.i++;
          if (this.skip(AFTER_NAME, escapable)) continue;
        }
        this.i = at;
      }
      // Read as text: the sink wants tags, or there is a message to write.
      const key = this.token(AFTER_KEY, escapable);
      if (this.peek() !== 61 || key === '') throw new ParseError(`invalid tag "${key}"`);
      this.i++;
      const value = this.token(AFTER_NAME, escapable);
      if (value === '') throw new ParseError(`tag "${key}" has no value`);
      tags.push(key, value);
    }
  }

  private fields(): void {
    const out = this.out;
    let f = 0;
    for (; ; f++) {
      if (f === out.numbers.length) {
        const grown = new Float64Array(f * 2);
        grown.set(out.numbers);
        out.numbers = grown;
      }
      const key = this.token(AFTER_KEY, COMMA_BIT | EQUALS_BIT | SPACE_BIT, out.keys[f]);
      if (key === '' || this.peek() !== 61) throw new ParseError(`invalid field "${key}"`);
      this.i++;
      out.keys[f] = key;
      out.others[f] = this.value(key, f);
      if (this.peek() === 44) {
        this.i++;
        continue;
      }
      break;
    }
    out.count = f + 1;
  }

  /** A field's value: a string or boolean, or undefined with the number in `numbers[f]`. */
  private value(key: string, f: number): string | boolean | undefined {
    const s = this.s;
    if (this.peek() === QUOTE) return this.quoted(key);
    // The common value, a plain decimal of ≤ 15 digits, read from the characters.
    let j = this.i;
    let c = s.charCodeAt(j);
    const negative = c === MINUS;
    if (negative || c === PLUS) c = s.charCodeAt(++j);
    let mantissa = 0;
    let digits = 0;
    let decimals = -1;
    for (; j < this.end; c = s.charCodeAt(++j)) {
      if (isDigit(c)) {
        mantissa = mantissa * 10 + (c - ZERO);
        digits++;
        if (decimals >= 0) decimals++;
      } else if (c === DOT && decimals < 0) decimals = 0;
      else break;
    }
    if (digits > 0 && digits <= EXACT_DIGITS && (j === this.end || bitOf(c) & AFTER_NAME)) {
      this.i = j;
      const value = decimals > 0 ? mantissa / (POW10[decimals] as number) : mantissa;
      this.out.numbers[f] = negative ? -value : value;
      return undefined;
    }
    const raw = this.token(AFTER_NAME, 0);
    if (raw === '') throw new ParseError(`field "${key}" has no value`);
    // The spellings are disjoint (a boolean starts with a letter, a number with a digit, a sign or a
    // dot, an integer ends in i or u).
    const first = raw.charCodeAt(0);
    if (isDigit(first) || first === MINUS || first === PLUS || first === DOT) {
      if (FLOAT.test(raw)) {
        const value = Number(raw);
        if (!Number.isFinite(value)) throw new ParseError(`field "${key}": number out of range`);
        this.out.numbers[f] = value;
        return undefined;
      }
      if (INTEGER.test(raw) || UNSIGNED.test(raw)) {
        const value = Number(raw.slice(0, -1));
        if (!Number.isFinite(value)) throw new ParseError(`field "${key}": integer out of range`);
        this.out.numbers[f] = value;
        return undefined;
      }
    } else {
      if (TRUE.has(raw)) return true;
      if (FALSE.has(raw)) return false;
    }
    throw new ParseError(`field "${key}": invalid value "${raw.slice(0, 40)}"`);
  }

  private quoted(key: string): string {
    const s = this.s;
    let i = this.i + 1;
    let out = '';
    for (;;) {
      if (i >= this.end) throw new ParseError(`unterminated string value of field "${key}"`);
      const c = s.charCodeAt(i);
      if (c === BACKSLASH && (s.charCodeAt(i + 1) === QUOTE || s.charCodeAt(i + 1) === BACKSLASH)) {
        out += s[i + 1];
        i += 2;
        continue;
      }
      i++;
      if (c === QUOTE) {
        this.i = i;
        return out;
      }
      out += s[i - 1];
    }
  }

  /**
   * A timestamp (`-?\d{1,19}`) in ms, or undefined when the line ends in blanks. The digits kept
   * (those above the ms) are summed as a double when few enough to be exact (15), which avoids a
   * BigInt per line; else by BigInt. Cut toward zero, as BigInt division does.
   */
  private timestamp(): number | undefined {
    const s = this.s;
    const from = this.i;
    if (from === this.end) return undefined;
    let j = from;
    if (s.charCodeAt(j) === MINUS) j++;
    const first = j;
    while (j < this.end && isDigit(s.charCodeAt(j))) j++;
    const digits = j - first;
    if (digits === 0 || digits > 19 || (j < this.end && !(bitOf(s.charCodeAt(j)) & WHITE))) {
      this.skip(WHITE, 0);
      throw new ParseError(`invalid timestamp "${s.slice(from, Math.min(this.i, from + 30))}"`);
    }
    this.i = j;
    const cut = SUB_MS[this.precision] ?? 0;
    const { mul, div } = TO_MS[this.precision];
    if (digits - cut > EXACT_DIGITS) return Number((BigInt(s.slice(from, j)) * mul) / div);
    let kept = 0;
    for (let k = first; k < j - cut; k++) kept = kept * 10 + (s.charCodeAt(k) - ZERO);
    if (kept === 0) return 0;
    return (first > from ? -kept : kept) * Number(mul);
  }
}

/**
 * Reads a line-protocol body into `sink`: each line either parses or is named in an error with its
 * number, so one bad line does not lose the others.
 */
export function readLineProtocol(body: string, precision: Precision, sink: LineSink): void {
  const reader = new LineReader(body, precision, sink.tags === true);
  // Line by line through the body (no array of every line, no copy of a line), leading blanks and
  // a CR cut.
  for (let n = 1, at = 0; at <= body.length; n++) {
    let end = body.indexOf('\n', at);
    if (end < 0) end = body.length;
    let from = at;
    at = end + 1;
    if (end > from && body.charCodeAt(end - 1) === 13) end--;
    while (from < end && bitOf(body.charCodeAt(from)) & WHITE) from++;
    if (from === end || body.charCodeAt(from) === HASH) continue;
    let parsed: ParsedLine;
    try {
      parsed = reader.read(n, from, end);
    } catch (error) {
      if (!(error instanceof ParseError)) throw error;
      sink.error(n, error.message);
      continue;
    }
    sink.line(parsed);
  }
}
