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

/**
 * Checks one device's messages: a malformed message or one with unexpected keys is refused whole,
 * a bad time refuses its values, each value is coerced to its ability's type (numbers go to the
 * columns, strings to `texts`). One bad value never drops the rest of its batch. Pure: it runs on
 * the main thread or in a parse worker alike.
 */
export function checkItems(
  items: readonly Incoming[],
  abilities: ReadonlyMap<string, AbilityRule>,
  thingId: number,
  arrival: number,
  oldest: number,
): Checked {
  const capacity = countValues(items);
  const metric = new Uint32Array(capacity);
  const ts = new Float64Array(capacity);
  const values = new Float64Array(capacity);
  const metrics: string[] = [];
  const metricIndex = new Map<string, number>();
  const texts: LiveValue[] = [];
  const rejected: Rejection[] = [];
  let n = 0;
  const refuse = (index: number, key: string | null, reason: RejectReason) =>
    rejected.push({ index, metric: key, reason });
  for (const item of items) {
    if (item.values === null) {
      refuse(item.index, null, 'bad message');
      continue;
    }
    // A key beside ts/values makes the whole message bad: its values are not written either
    // (a device sending {"__proto__":…,"values":…} is told, not half-taken).
    if (item.unexpected?.length) {
      for (const key of item.unexpected) refuse(item.index, key, 'bad message');
      for (const [key] of item.values) refuse(item.index, key, 'bad message');
      continue;
    }
    const at = pointTime(item.ts, arrival, oldest);
    if (at === undefined) {
      for (const [key] of item.values) refuse(item.index, key, 'bad timestamp');
      continue;
    }
    for (const [key, raw] of item.values) {
      let ability = abilities.get(key);
      if (!ability && item.measurement !== undefined) ability = abilities.get(`${item.measurement}_${key}`);
      if (!ability) {
        refuse(item.index, key, 'unknown metric');
        continue;
      }
      const value = coerce(ability, raw);
      if (value.kind === 'rejected') refuse(item.index, key, value.reason);
      else if (value.kind === 'string')
        texts.push({ thingId, metric: ability.identifier, ts: at, value: value.value });
      else {
        let m = metricIndex.get(ability.identifier);
        if (m === undefined) {
          m = metrics.length;
          metrics.push(ability.identifier);
          metricIndex.set(ability.identifier, m);
        }
        metric[n] = m;
        ts[n] = at;
        values[n] = value.value;
        n++;
      }
    }
  }
  return {
    numbers: { thingId, metrics, metric: metric.slice(0, n), ts: ts.slice(0, n), values: values.slice(0, n) },
    texts,
    rejected,
  };
}

/** The result a device is told: values accepted, and each rejection. */
export function resultOf(checked: Checked): IngestResult {
  return { accepted: checked.numbers.ts.length + checked.texts.length, rejected: checked.rejected };
}
