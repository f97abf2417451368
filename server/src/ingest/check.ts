import type { EffectiveAbility, IngestResult, LiveValue } from '@kilowatch/contract';
import type { PointBatch } from '../telemetry/index.ts';
import type { Incoming } from './payload.ts';
import { coerce, pointTime, type RejectReason } from './values.ts';

/** What of an ability the checks read; a plain object, so it crosses to a parse worker. */
export type AbilityRule = Pick<EffectiveAbility, 'identifier' | 'dataType' | 'enumOptions'>;

interface Rejection {
  index: number;
  metric: string | null;
  reason: RejectReason;
}

/** A batch's values checked against the thing's abilities: numbers as columns, texts, rejections. */
export interface Checked {
  numbers: PointBatch;
  texts: LiveValue[];
  rejected: Rejection[];
}

/** Values in a batch: each message's values (or 1 when malformed) and its unexpected keys. */
export function countValues(items: readonly Incoming[]): number {
  let total = 0;
  for (const item of items)
    total += (item.values === null ? 1 : item.values.length) + (item.unexpected?.length ?? 0);
  return total;
}

/** Where a value's key leads: its ability, and its column index once a number was kept. */
interface Slot {
  ability: AbilityRule;
  metric: number;
}

/**
 * Checks one device's values as they come (from JSON messages or line protocol) into columns:
 * each value is coerced to its ability's type (numbers to the columns, strings to `texts`), and a
 * value that cannot be kept is refused with its message's index. Each key is looked up once per
 * batch, not once per value. Pure: it runs on the main thread or in a parse worker alike.
 */
export class BatchChecker {
  private metric: Uint32Array;
  private ts: Float64Array;
  private values: Float64Array;
  private n = 0;
  private readonly metrics: string[] = [];
  private readonly texts: LiveValue[] = [];
  private readonly rejected: Rejection[] = [];
  /** Slots by measurement ('' for none), then key; null: no ability of that name. */
  private readonly slots = new Map<string, Map<string, Slot | null>>();
  private lastMeasurement: string | undefined;
  private lastSlots = new Map<string, Slot | null>();

  constructor(
    private readonly abilities: ReadonlyMap<string, AbilityRule>,
    private readonly thingId: number,
    /** Arrival and the oldest time kept, for `time()`. */
    private readonly arrival: number,
    private readonly oldest: number,
    capacity = 1024,
  ) {
    this.metric = new Uint32Array(capacity);
    this.ts = new Float64Array(capacity);
    this.values = new Float64Array(capacity);
    this.slots.set('', this.lastSlots);
    this.lastMeasurement = '';
  }

  /** A message's time in ms, or undefined when it is refused (`pointTime`). */
  time(raw: unknown): number | undefined {
    return pointTime(raw, this.arrival, this.oldest);
  }

  refuse(index: number, key: string | null, reason: RejectReason): void {
    this.rejected.push({ index, metric: key, reason });
  }

  /** A number `raw` of `key` at `at` (line protocol's numbers need no coercion when the ability is one). */
  number(index: number, at: number, key: string, measurement: string | undefined, raw: number): void {
    const slot = this.slot(key, measurement);
    if (slot === null) this.refuse(index, key, 'unknown metric');
    else if (slot.ability.dataType === 'number' && Number.isFinite(raw)) this.push(slot, at, raw);
    else this.coerced(index, at, key, slot, raw);
  }

  /** Any raw value of `key` at `at`, coerced to its ability's type. */
  value(index: number, at: number, key: string, measurement: string | undefined, raw: unknown): void {
    const slot = this.slot(key, measurement);
    if (slot === null) this.refuse(index, key, 'unknown metric');
    else this.coerced(index, at, key, slot, raw);
  }

  finish(): Checked {
    const n = this.n;
    return {
      numbers: {
        thingId: this.thingId,
        metrics: this.metrics,
        metric: this.metric.slice(0, n),
        ts: this.ts.slice(0, n),
        values: this.values.slice(0, n),
      },
      texts: this.texts,
      rejected: this.rejected,
    };
  }

  private coerced(index: number, at: number, key: string, slot: Slot, raw: unknown): void {
    const value = coerce(slot.ability, raw);
    if (value.kind === 'rejected') this.refuse(index, key, value.reason);
    else if (value.kind === 'string')
      this.texts.push({ thingId: this.thingId, metric: slot.ability.identifier, ts: at, value: value.value });
    else this.push(slot, at, value.value);
  }

  /** `key`'s ability, or line protocol's `measurement_key` when `key` is none. */
  private slot(key: string, measurement: string | undefined): Slot | null {
    const m = measurement ?? '';
    if (m !== this.lastMeasurement) {
      let slots = this.slots.get(m);
      if (!slots) {
        slots = new Map();
        this.slots.set(m, slots);
      }
      this.lastSlots = slots;
      this.lastMeasurement = m;
    }
    let slot = this.lastSlots.get(key);
    if (slot === undefined) {
      let ability = this.abilities.get(key);
      if (!ability && measurement !== undefined) ability = this.abilities.get(`${measurement}_${key}`);
      slot = ability ? { ability, metric: -1 } : null;
      this.lastSlots.set(key, slot);
    }
    return slot;
  }

  private push(slot: Slot, at: number, value: number): void {
    if (slot.metric < 0) {
      // Keys naming one ability (`P`, and `meter_P` in line protocol) share its column.
      slot.metric = this.metrics.indexOf(slot.ability.identifier);
      if (slot.metric < 0) {
        slot.metric = this.metrics.length;
        this.metrics.push(slot.ability.identifier);
      }
    }
    if (this.n === this.ts.length) this.grow();
    const n = this.n++;
    this.metric[n] = slot.metric;
    this.ts[n] = at;
    this.values[n] = value;
  }

  private grow(): void {
    const size = Math.max(16, this.ts.length * 2);
    const metric = new Uint32Array(size);
    const ts = new Float64Array(size);
    const values = new Float64Array(size);
    metric.set(this.metric);
    ts.set(this.ts);
    values.set(this.values);
    this.metric = metric;
    this.ts = ts;
    this.values = values;
  }
}

/**
 * Checks one device's messages: a malformed message or one with unexpected keys is refused whole,
 * a bad time refuses its values, each value is coerced to its ability's type. One bad value never
 * drops the rest of its batch.
 */
export function checkItems(
  items: readonly Incoming[],
  abilities: ReadonlyMap<string, AbilityRule>,
  thingId: number,
  arrival: number,
  oldest: number,
): Checked {
  const checker = new BatchChecker(abilities, thingId, arrival, oldest, countValues(items));
  for (const item of items) {
    if (item.values === null) {
      checker.refuse(item.index, null, 'bad message');
      continue;
    }
    // A key beside ts/values makes the whole message bad: its values are not written either
    // (a device sending {"__proto__":…,"values":…} is told, not half-taken).
    if (item.unexpected?.length) {
      for (const key of item.unexpected) checker.refuse(item.index, key, 'bad message');
      for (const [key] of item.values) checker.refuse(item.index, key, 'bad message');
      continue;
    }
    const at = checker.time(item.ts);
    if (at === undefined) {
      for (const [key] of item.values) checker.refuse(item.index, key, 'bad timestamp');
      continue;
    }
    for (const [key, raw] of item.values) checker.value(item.index, at, key, item.measurement, raw);
  }
  return checker.finish();
}

/** The result a device is told: values accepted, and each rejection. */
export function resultOf(checked: Checked): IngestResult {
  return { accepted: checked.numbers.ts.length + checked.texts.length, rejected: checked.rejected };
}
