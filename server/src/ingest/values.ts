import { type EffectiveAbility, toMillis } from '@kilowatch/contract';

/**
 * How an incoming value becomes a stored number, per the ability's data type. Pure functions, so
 * every rule is tested without a server.
 */

/** Why a point was refused; also the keys of the rejection counters. */
const REJECT_REASONS = [
  'unknown thing',
  'unknown metric',
  'bad value',
  'bad timestamp',
  'bad message',
  'bad topic',
  'batch too large',
] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

/** Points older than this are refused (and anything older than the store's raw retention). */
export const MAX_PAST_MS = 365 * 86_400_000;
/** Points further ahead than this are refused: a device clock that far off is wrong. */
export const MAX_FUTURE_MS = 10 * 60_000;

export type Coerced =
  | { kind: 'number'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'rejected'; reason: RejectReason };

const bad: Coerced = { kind: 'rejected', reason: 'bad value' };

/** A finite number from a number or a numeric string ("12.5", " 3 "); undefined otherwise. */
function numeric(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value.trim());
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/**
 * The value to keep for `ability`:
 * - number: a number or numeric string;
 * - boolean: true/false, 1/0 (also as strings "true"/"false"/"1"/"0") → 1/0;
 * - enum: an option's value or label, or a number naming an option. Stored as the option's value
 *   when that is numeric (e.g. 运转状态 "1" → 1), else as the option's index; a number is
 *   accepted when it equals a numeric option value (or, for non-numeric options, is an index);
 *   an enum without options takes any number;
 * - string: any string, number or boolean, kept as text (not stored; the latest is held in
 *   memory for the real-time view).
 */
export function coerce(ability: Pick<EffectiveAbility, 'dataType' | 'enumOptions'>, value: unknown): Coerced {
  switch (ability.dataType) {
    case 'number': {
      const n = numeric(value);
      return n === undefined ? bad : { kind: 'number', value: n };
    }
    case 'boolean': {
      if (value === true || value === 1 || value === '1' || value === 'true')
        return { kind: 'number', value: 1 };
      if (value === false || value === 0 || value === '0' || value === 'false')
        return { kind: 'number', value: 0 };
      return bad;
    }
    case 'enum': {
      const options = ability.enumOptions;
      const stored = (index: number): Coerced => {
        const n = numeric(options[index]?.value);
        return { kind: 'number', value: n ?? index };
      };
      if (typeof value === 'string') {
        const text = value.trim();
        const byValue = options.findIndex((o) => o.value === text);
        if (byValue >= 0) return stored(byValue);
        const byLabel = options.findIndex((o) => o.label === text);
        if (byLabel >= 0) return stored(byLabel);
      }
      const n = numeric(value);
      if (n === undefined) return bad;
      if (options.length === 0) return { kind: 'number', value: n };
      if (options.some((o) => numeric(o.value) === n)) return { kind: 'number', value: n };
      if (options.every((o) => numeric(o.value) === undefined) && Number.isInteger(n) && n >= 0) {
        return n < options.length ? { kind: 'number', value: n } : bad;
      }
      return bad;
    }
    case 'string':
      if (typeof value === 'string') return { kind: 'string', value };
      if (typeof value === 'number' || typeof value === 'boolean')
        return { kind: 'string', value: String(value) };
      return bad;
  }
}

/**
 * The point's time in ms: `raw` (ms, or 10-digit seconds, spec §9) or `arrival` when absent;
 * undefined when it is not a time or lies outside [oldest, now + MAX_FUTURE_MS].
 */
export function pointTime(raw: unknown, arrival: number, oldest: number): number | undefined {
  if (raw === undefined || raw === null) return arrival;
  const n = numeric(raw);
  if (n === undefined) return undefined;
  const ts = Math.round(toMillis(n));
  if (!Number.isSafeInteger(ts) || ts < oldest || ts > arrival + MAX_FUTURE_MS) return undefined;
  return ts;
}
