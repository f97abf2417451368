import { clamp } from './hash.ts';
import type { CompressorHour } from './model.ts';
import { PRESSURE_HIGH, PRESSURE_LOW } from './shapes.ts';

// A compressor's hour, given its plan: the on-load cycles, its starts and its outlet pressure.

/** Hours on load in hour `p.h` up to fraction f, and the starts (off → on) up to f. */
export function compressorUpTo(p: CompressorHour, f: number): [onHours: number, starts: number] {
  if (p.duty <= 0) return [0, 0];
  const end = Math.min(f, p.tripAt);
  if (p.duty >= 1) return [Math.max(end, 0), !p.prevOn && p.tripAt > 0 && f >= 0 ? 1 : 0];
  const slot = 1 / p.cycles;
  const onPart = p.duty * slot;
  let on = 0;
  let starts = 0;
  for (let c = 0; c < p.cycles; c++) {
    const s = c * slot;
    if (s > f || s >= p.tripAt) break;
    on += clamp(end - s, 0, onPart);
    if (c > 0 || !p.prevOn) starts++;
  }
  return [on, starts];
}

export function isRunning(p: CompressorHour, f: number): boolean {
  if (p.duty <= 0 || f >= p.tripAt) return false;
  if (p.duty >= 1) return true;
  const slot = 1 / p.cycles;
  return f - Math.floor(f / slot) * slot < p.duty * slot;
}

/**
 * Outlet pressure (MPa) of the hysteresis control: it rises from the low to the high limit while
 * the machine is on load and falls back while it is off; a tripped machine loses pressure.
 */
export function pressure(p: CompressorHour, f: number): number {
  if (f >= p.tripAt) return 0.45;
  if (p.duty <= 0) return 0.6;
  if (p.duty >= 1) return 0.67;
  const slot = 1 / p.cycles;
  const x = f - Math.floor(f / slot) * slot;
  const on = p.duty * slot;
  const band = PRESSURE_HIGH - PRESSURE_LOW;
  return x < on ? PRESSURE_LOW + (band * x) / on : PRESSURE_HIGH - (band * (x - on)) / (slot - on);
}
