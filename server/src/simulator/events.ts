import { uniform } from './hash.ts';
import type { ThingModel } from './model.ts';
import {
  ALARM_CHANCE,
  FAULT_CHANCE,
  FIRE_BLOCK_MS,
  GAP_CHANCE,
  MOTOR_TEMP_LIMIT,
  OVERHEAT_BLOCK_MS,
  OVERHEAT_CHANCE,
  REPLACE_CHANCE,
  REPLACE_PERIOD_HOURS,
  SALT,
} from './shapes.ts';

// The demo plant's episodes, each a pure function of a thing's key and the time: gaps, meter
// replacements, motor overheating and fire-sensor alarms and faults.

const HOUR = 3_600_000;

/** Whether the thing is silent (sends nothing) at `ts`: a gap of 2–15 minutes, ~once per 10 days. */
export function silent(m: ThingModel, ts: number): boolean {
  const h = Math.floor(ts / HOUR);
  if (uniform(m.key, SALT.gap, h) >= GAP_CHANCE) return false;
  const start = h * HOUR + Math.floor(uniform(m.key, SALT.gapStart, h) * 45) * 60_000;
  const length = (2 + Math.floor(uniform(m.key, SALT.gapLength, h) * 14)) * 60_000;
  return ts >= start && ts < start + length;
}

/** Hour the meter was last replaced at or before hour `h` (its counter restarted at 0), if any. */
export function replacedAt(m: ThingModel, h: number): number | undefined {
  if (m.spec.kind !== 'meter' && m.spec.kind !== 'water' && m.spec.kind !== 'gas') return undefined;
  for (
    let p = Math.floor(h / REPLACE_PERIOD_HOURS);
    p * REPLACE_PERIOD_HOURS + REPLACE_PERIOD_HOURS > m.anchor;
    p--
  ) {
    if (uniform(m.key, SALT.replace, p) >= REPLACE_CHANCE) continue;
    const at =
      p * REPLACE_PERIOD_HOURS + Math.floor(uniform(m.key, SALT.replaceAt, p) * REPLACE_PERIOD_HOURS);
    if (at <= h && at > m.anchor) return at;
  }
  return undefined;
}

/**
 * An overheating episode of a compressor motor under way at `ts`: its peak (℃) and how far
 * towards it the winding is (0–1: a linear rise, then a cooling that slows as it nears normal).
 */
export function overheat(
  m: ThingModel,
  ts: number,
): { start: number; end: number; peak: number; share: number } | undefined {
  const block = Math.floor(ts / OVERHEAT_BLOCK_MS);
  if (uniform(m.key, SALT.overheat, block) >= OVERHEAT_CHANCE) return undefined;
  const start =
    block * OVERHEAT_BLOCK_MS +
    Math.floor(uniform(m.key, SALT.overheatAt, block) * (OVERHEAT_BLOCK_MS - HOUR));
  const rise = (10 + 10 * uniform(m.key, SALT.overheatRise, block)) * 60_000;
  const cool = (15 + 10 * uniform(m.key, SALT.overheatCool, block)) * 60_000;
  if (ts < start || ts >= start + rise + cool) return undefined;
  const peak = MOTOR_TEMP_LIMIT + 5 + 15 * uniform(m.key, SALT.overheatPeak, block);
  const x = ts - start;
  const share = x < rise ? x / rise : (1 - (x - rise) / cool) ** 2;
  return { start, end: start + rise + cool, peak, share };
}

/** A fire sensor's condition at `ts`: normal, an alarm (smoke level %/m) or a fault. */
export function fireState(
  m: ThingModel,
  ts: number,
): { kind: 'normal' } | { kind: 'alarm'; start: number; level: number } | { kind: 'fault' } {
  const block = Math.floor(ts / FIRE_BLOCK_MS);
  const base = block * FIRE_BLOCK_MS;
  if (uniform(m.key, SALT.alarm, block) < ALARM_CHANCE) {
    const start = base + Math.floor(uniform(m.key, SALT.alarmAt, block) * (FIRE_BLOCK_MS - 15 * 60_000));
    const length = (3 + 9 * uniform(m.key, SALT.alarmLength, block)) * 60_000;
    if (ts >= start && ts < start + length)
      return { kind: 'alarm', start, level: 3 + 5 * uniform(m.key, SALT.alarmLength + 1, block) };
  }
  if (uniform(m.key, SALT.fault, block) < FAULT_CHANCE) {
    const start = base + Math.floor(uniform(m.key, SALT.faultAt, block) * (FIRE_BLOCK_MS - 95 * 60_000));
    const length = (20 + 70 * uniform(m.key, SALT.faultLength, block)) * 60_000;
    if (ts >= start && ts < start + length) return { kind: 'fault' };
  }
  return { kind: 'normal' };
}
