import { clamp } from './hash.ts';
import type { LoadProfile } from './kinds.ts';

// The demo plant's numbers: load shapes, event chances, physical constants. Local copies of the
// time units: imported bindings cost a getter call each under tsx, and these are in the hot path.
const HOUR = 3_600_000;

/**
 * Load (fraction of rated) at each local hour of a working day. Shifts 08–16 and 16–24, lunch and
 * dinner dips, a night base load; the office works 08–18.
 */
export const WEEKDAY: Record<LoadProfile, readonly number[]> = {
  // 0     1     2     3     4     5     6     7     8     9     10    11
  production: [
    0.24, 0.22, 0.22, 0.22, 0.22, 0.23, 0.26, 0.45, 0.86, 0.93, 0.94, 0.92,
    // 12  13    14    15    16    17    18    19    20    21    22    23
    0.7, 0.9, 0.94, 0.93, 0.8, 0.86, 0.88, 0.86, 0.76, 0.84, 0.82, 0.58,
  ],
  office: [
    0.16, 0.15, 0.15, 0.15, 0.15, 0.15, 0.18, 0.32, 0.82, 0.95, 0.96, 0.94, 0.78, 0.92, 0.96, 0.95, 0.92,
    0.74, 0.42, 0.3, 0.26, 0.24, 0.18, 0.16,
  ],
  utility: [
    0.3, 0.28, 0.28, 0.28, 0.28, 0.29, 0.33, 0.5, 0.85, 0.92, 0.93, 0.91, 0.74, 0.9, 0.93, 0.92, 0.82, 0.84,
    0.84, 0.82, 0.74, 0.8, 0.78, 0.56,
  ],
};
/** Weekends run at about 30 % of a weekday (maintenance crew, base load). */
export const WEEKEND_FACTOR = 0.3;

export const SALT = {
  day: 1,
  hour: 2,
  sample: 3,
  gap: 4,
  gapStart: 5,
  gapLength: 6,
  replace: 7,
  replaceAt: 8,
  anchor: 9,
  initial: 10,
  volt: 11,
  bus: 12,
  freq: 13,
  pf: 14,
  amp: 15,
  trip: 16,
  tripAt: 17,
  cycles: 18,
  scale: 19,
  pressure: 20,
  alarm: 21,
  alarmAt: 22,
  alarmLength: 23,
  fault: 24,
  faultAt: 25,
  faultLength: 26,
  smoke: 27,
  temp: 28,
  overheat: 29,
  overheatAt: 30,
  overheatRise: 31,
  overheatCool: 32,
  overheatPeak: 33,
  motor: 34,
  weather: 35,
  phase: 36,
} as const;

/** Hourly chance that a device goes silent for 2–15 minutes (a gap in its series). */
export const GAP_CHANCE = 0.004;
/** Counters of meters may be replaced (reset to 0): chance per 45-day period. */
export const REPLACE_PERIOD_HOURS = 45 * 24;
export const REPLACE_CHANCE = 0.03;
/** Chance per hour that a running compressor trips; it then stays off for the next hour. */
export const TRIP_CHANCE = 0.002;
/** Fire sensors: chance per 6-hour block of an alarm (3–12 min) and of a fault (20–90 min). */
export const FIRE_BLOCK_MS = 6 * HOUR;
export const ALARM_CHANCE = 0.006;
export const FAULT_CHANCE = 0.002;
/**
 * Compressor motors: chance per 3-hour block of overheating (a clogged cooler, a failing fan). The
 * winding heats for 10–20 minutes towards 110–125 ℃ (less on a light load: a stopped motor makes no
 * heat), then cools back in 15–25 minutes, passing the limit for about ten minutes.
 */
export const OVERHEAT_BLOCK_MS = 3 * HOUR;
export const OVERHEAT_CHANCE = 0.12;
/** Where the demo's rule 电机温度过高 rings (demo/alarm-rules.ts); a healthy motor stays below 90 ℃. */
export const MOTOR_TEMP_LIMIT = 105;
/** Compressor pressure band (MPa): loads at the low limit, unloads at the high one. */
export const PRESSURE_LOW = 0.62;
export const PRESSURE_HIGH = 0.72;
/** Counters start at a meter's installation: an hour index before 2025 (per thing). */
export const ANCHOR_BASE_HOUR = Date.UTC(2025, 0, 1) / HOUR;
export const COMPRESSOR_LOAD = 0.88;
/**
 * Mean power factor (cos φ) of a load running at `load` × rated: induction motors draw about the
 * same magnetising current at any load, so a light load has the poorer factor; 0.85 idle to 0.95
 * at rated. The meters' PF and the reactive counters (EQ) both follow it.
 */
export const powerFactorAt = (load: number): number => 0.85 + 0.1 * clamp(load, 0, 1);
/** Reactive per active energy (tan φ) at `load`. */
export const tanPhiAt = (load: number): number => {
  const pf = powerFactorAt(load);
  return Math.sqrt(1 - pf * pf) / pf;
};
/** A reactive counter's reading at installation, per kWh of the active one (tan φ of a typical load). */
export const INITIAL_TAN_PHI = 0.45;
export const TRANSFORMER_PF = 0.92;
/**
 * A distribution transformer's losses per kVA of its rating, of the order of an energy-efficient
 * oil-immersed one (GB 20052): the no-load (iron) loss, drawn whenever it is energised, and the
 * load (copper) loss at rated current, which grows with the square of the load. Together 0.6–1 %
 * of its input over a working day, more on a weekend night when little else runs.
 */
export const NO_LOAD_LOSS = 0.0008;
export const LOAD_LOSS = 0.0085;
/** The transformer's input meter's own error (class 0.2S): ±0.1 %. */
export const TRANSFORMER_METER_NOISE = 0.001;
/**
 * Production lines make nothing below this load (the night and weekend base load: lighting,
 * standby, fans); above it their output grows with the load. Energy is then about a fixed part
 * plus a part per piece: what an EnPI baseline regresses (docs/enpi.md).
 */
export const LINE_IDLE_LOAD = 0.3;
/**
 * Heating and cooling follow the day's mean outdoor temperature: the office draws +3 % of its
 * load per degree below 18 ℃ and +4 % per degree above 24 ℃, the utilities (pumps, compressors'
 * cooling) +2 % per degree above 24 ℃; degree days explain part of the plant's energy.
 */
export const HEATING_BASE = 18;
export const COOLING_BASE = 24;
