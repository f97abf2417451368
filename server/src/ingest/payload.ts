/** One message (or line) before validation: its raw time and its values by metric. */
export interface Incoming {
  /** Index in the batch (HTTP JSON) or line number (line protocol). */
  index: number;
  ts: unknown;
  /** null: the message itself is malformed (not an object, no `values` object). */
  values: [metric: string, value: unknown][] | null;
  /** Line protocol: the measurement, tried as `measurement_field` when `field` is not an ability. */
  measurement?: string;
  /**
   * Keys a timed JSON message carries beside `ts` and `values`: the message is refused (its values
   * too), the keys named, never dropped unseen.
   */
  unexpected?: string[];
}

/**
 * The JSON telemetry payload, the same on every path (MQTT topics, POST /api/telemetry,
 * ThingsBoard's POST /api/v1/{token}/telemetry). It takes what ThingsBoard takes on
 * `v1/devices/me/telemetry`, so devices made for ThingsBoard work unchanged:
 *
 * - flat key-values `{"P":13.5,"Ia":5.2}`: every key is a metric, stamped on arrival;
 * - a timed message `{"ts":1451649600512,"values":{"P":13.5}}` (`ts` optional, as before);
 * - an array of either, mixed, each element its own message.
 *
 * An object is a timed message when its `values` is an object, or when it carries both `ts`
 * and `values` (then `values` must be an object, as in ThingsBoard); anything else is flat.
 */

export type Decoded =
  | { ok: true; value: unknown }
  | { ok: false; error: 'empty' | 'invalid'; detail?: string };

/**
 * Parses a JSON body or MQTT payload. `JSON.parse` makes `__proto__` an own key like any
 * other (it never sets a prototype), and the items below only read own keys.
 */
export function decodeJson(body: Buffer | string | undefined): Decoded {
  let text = body === undefined ? '' : typeof body === 'string' ? body : body.toString('utf8');
  // Some devices (Windows and .NET stacks) start UTF-8 with a byte-order mark; JSON.parse refuses it.
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  if (text.trim() === '') return { ok: false, error: 'empty' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: 'invalid', detail: (error as Error).message };
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function message(raw: unknown, index: number): Incoming {
  if (!isObject(raw)) return { index, ts: undefined, values: null };
  const hasValues = Object.hasOwn(raw, 'values');
  const timed = hasValues && (isObject(raw.values) || Object.hasOwn(raw, 'ts'));
  if (!timed) return { index, ts: undefined, values: Object.entries(raw) };
  const ts = raw.ts;
  if (!isObject(raw.values)) return { index, ts, values: null };
  const unexpected = Object.keys(raw).filter((key) => key !== 'ts' && key !== 'values');
  const item: Incoming = { index, ts, values: Object.entries(raw.values) };
  if (unexpected.length > 0) item.unexpected = unexpected;
  return item;
}

/** A decoded payload as messages: one per element of an array, else one. */
export function telemetryItems(payload: unknown): Incoming[] {
  return Array.isArray(payload) ? payload.map(message) : [message(payload, 0)];
}
