import { PlantCalendar } from '@kilowatch/contract/calendar';
import { type LoadProfile, METRICS, type SimThingSpec } from './kinds.ts';
import { isElectricLoad } from './topology.ts';

// Local copies: imported bindings cost a getter call each under tsx, and these are in the hot path.
const HOUR = 3_600_000;
const DAY = 86_400_000;

/**
 * Load-shape generator of the demo plant. Every value is a pure function of (thing, metric,
 * time, seed): instantaneous values come from a mean shape (hour knots, interpolated) times hashed
 * noise, and counters are closed-form integrals of the same mean shape since the meter's
 * installation (or its last replacement). The only state is a per-thing prefix cache of those
 * integrals, so the live publisher and the backfill produce identical values for the same
 * instant, and counters continue from history into live data without a seam.
 */

// ---- shapes ------------------------------------------------------------------------------------

/**
 * Load (fraction of rated) at each local hour of a working day. Shifts 08–16 and 16–24, lunch and
 * dinner dips, a night base load; the office works 08–18.
 */
const WEEKDAY: Record<LoadProfile, readonly number[]> = {
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
const WEEKEND_FACTOR = 0.3;

const SALT = {
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
const GAP_CHANCE = 0.004;
/** Counters of meters may be replaced (reset to 0): chance per 45-day period. */
export const REPLACE_PERIOD_HOURS = 45 * 24;
const REPLACE_CHANCE = 0.03;
/** Chance per hour that a running compressor trips; it then stays off for the next hour. */
const TRIP_CHANCE = 0.002;
/** Fire sensors: chance per 6-hour block of an alarm (3–12 min) and of a fault (20–90 min). */
const FIRE_BLOCK_MS = 6 * HOUR;
const ALARM_CHANCE = 0.006;
const FAULT_CHANCE = 0.002;
/**
 * Compressor motors: chance per 3-hour block of overheating (a clogged cooler, a failing fan). The
 * winding heats for 10–20 minutes towards 110–125 ℃ (less on a light load: a stopped motor makes no
 * heat), then cools back in 15–25 minutes, passing the limit for about ten minutes.
 */
const OVERHEAT_BLOCK_MS = 3 * HOUR;
const OVERHEAT_CHANCE = 0.12;
/** Where the demo's rule 电机温度过高 rings (demo/alarm-rules.ts); a healthy motor stays below 90 ℃. */
export const MOTOR_TEMP_LIMIT = 105;
/** Compressor pressure band (MPa): loads at the low limit, unloads at the high one. */
const PRESSURE_LOW = 0.62;
const PRESSURE_HIGH = 0.72;
/** Counters start at a meter's installation: an hour index before 2025 (per thing). */
const ANCHOR_BASE_HOUR = Date.UTC(2025, 0, 1) / HOUR;
const COMPRESSOR_LOAD = 0.88;
/**
 * Mean power factor (cos φ) of a load running at `load` × rated: induction motors draw about the
 * same magnetising current at any load, so a light load has the poorer factor; 0.85 idle to 0.95
 * at rated. The meters' PF and the reactive counters (EQ) both follow it.
 */
const powerFactorAt = (load: number): number => 0.85 + 0.1 * clamp(load, 0, 1);
/** Reactive per active energy (tan φ) at `load`. */
const tanPhiAt = (load: number): number => {
  const pf = powerFactorAt(load);
  return Math.sqrt(1 - pf * pf) / pf;
};
/** A reactive counter's reading at installation, per kWh of the active one (tan φ of a typical load). */
const INITIAL_TAN_PHI = 0.45;
const TRANSFORMER_PF = 0.92;
/**
 * A distribution transformer's losses per kVA of its rating, of the order of an energy-efficient
 * oil-immersed one (GB 20052): the no-load (iron) loss, drawn whenever it is energised, and the
 * load (copper) loss at rated current, which grows with the square of the load. Together 0.6–1 %
 * of its input over a working day, more on a weekend night when little else runs.
 */
const NO_LOAD_LOSS = 0.0008;
const LOAD_LOSS = 0.0085;
/** The transformer's input meter's own error (class 0.2S): ±0.1 %. */
const TRANSFORMER_METER_NOISE = 0.001;
/**
 * Production lines make nothing below this load (the night and weekend base load: lighting,
 * standby, fans); above it their output grows with the load. Energy is then about a fixed part
 * plus a part per piece: what an EnPI baseline regresses (docs/enpi.md).
 */
const LINE_IDLE_LOAD = 0.3;
/**
 * Heating and cooling follow the day's mean outdoor temperature: the office draws +3 % of its
 * load per degree below 18 ℃ and +4 % per degree above 24 ℃, the utilities (pumps, compressors'
 * cooling) +2 % per degree above 24 ℃; degree days explain part of the plant's energy.
 */
export const HEATING_BASE = 18;
const COOLING_BASE = 24;

// ---- thing models --------------------------------------------------------------------------------

interface CompressorHour {
  h: number;
  /** Share of the hour on load, 0..1. */
  duty: number;
  cycles: number;
  /** Fraction of the hour at which it tripped (1: no trip). */
  tripAt: number;
  /** Whether it was still running when the previous hour ended (no start at this hour's start). */
  prevOn: boolean;
}

/** A thing with its derived parameters and its counter cache; made by `PlantGenerator.model`. */
export interface ThingModel {
  readonly spec: SimThingSpec;
  readonly metrics: readonly string[];
  readonly key: number;
  /** First hour of its counters (installation). */
  readonly anchor: number;
  /** Counter readings at the anchor (index by counter). */
  readonly initial: readonly number[];
  /** Compressors: demand scale (lead machines high, lag machines low). */
  readonly scale: number;
  /** Transformers: the models of the loads it supplies (its own, so their caches stay apart). */
  readonly supplies: readonly ThingModel[];
  /** Transformers: the loads' energy (kWh) over hours tH0 and tH1 (cache of `loadEnergy`). */
  tH0: number;
  tE0: number;
  tH1: number;
  tE1: number;
  // knot cache (hour → demand), last three hours
  kH: number;
  kPrev: number;
  k0: number;
  k1: number;
  // counter prefix: sums over whole hours [segStart, pH)
  segStart: number;
  /** Hour whose segment start `segOfH` is (cache of `replacedAt`). */
  segH: number;
  segOfH: number;
  pH: number;
  pQ0: number;
  pQ1: number;
  /** Last compressor hour plan (cache). */
  plan: CompressorHour | undefined;
}

export interface GeneratorOptions {
  seed?: number;
  /** IANA zone of the plant: shifts and weekends are local. */
  timeZone: string;
}

// ---- deterministic randomness: hashes of (key, salt, index), no state ----

/** A 32-bit integer finaliser (lowbias32): good avalanche, a few multiplications. */
const mix = (x: number): number => {
  let h = x | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x21f0aaad);
  h ^= h >>> 15;
  h = Math.imul(h, 0x735a2d97);
  h ^= h >>> 15;
  return h >>> 0;
};

const TWO_32 = 4_294_967_296;

/** Uniform in [0, 1) from a key, a salt and an index (indices beyond 2³² wrap, harmlessly). */
const uniform = (key: number, salt: number, index: number): number =>
  mix(mix(key ^ Math.imul(salt, 0x9e3779b1)) ^ (index | 0) ^ Math.floor(index / TWO_32)) / TWO_32;

/**
 * Centred noise in (−1, 1) with a triangular distribution (sum of two uniforms), from one hash:
 * small deviations are common, the extremes rare.
 */
const noise = (key: number, salt: number, index: number): number => {
  const h = mix(mix(key ^ Math.imul(salt, 0x85ebca77)) ^ (index | 0));
  return ((h & 0xffff) + (h >>> 16)) / 65_536 - 1;
};

/** FNV-1a of a string, mixed: the key of a thing is the hash of its identifier and the seed. */
const stringKey = (text: string, seed: number): number => {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix(h);
};

const clamp = (x: number, lo: number, hi: number) => (x < lo ? lo : x > hi ? hi : x);

/** The generator of one plant (one seed, one time zone); shared by all its things. */
export class PlantGenerator {
  readonly seed: number;
  readonly calendar: PlantCalendar;
  private readonly localCache = new Map<number, number>();

  constructor(options: GeneratorOptions) {
    this.seed = options.seed ?? 1;
    this.calendar = new PlantCalendar(options.timeZone);
  }

  model(spec: SimThingSpec): ThingModel {
    const key = stringKey(spec.identifier, this.seed);
    const anchor = ANCHOR_BASE_HOUR - Math.floor(uniform(key, SALT.anchor, 0) * 2000);
    const u = (i: number) => uniform(key, SALT.initial, i);
    let initial: number[] = [];
    if (spec.kind === 'meter') {
      const ep = spec.rated * (3000 + 20_000 * u(0));
      initial = [ep, ep * INITIAL_TAN_PHI];
    } else if (spec.kind === 'transformer') initial = [spec.rated * (3000 + 20_000 * u(0))];
    else if (spec.kind === 'water' || spec.kind === 'gas') initial = [spec.rated * (2000 + 8000 * u(0))];
    else if (spec.kind === 'line') initial = [Math.round(spec.rated * (500 + 5000 * u(0)))];
    else if (spec.kind === 'compressor') {
      const run = 8000 + 22_000 * u(0);
      initial = [run, Math.round(run * (1.2 + 0.6 * u(1))), run * (0.5 + 0.3 * u(2))];
      initial.push(run * spec.rated * COMPRESSOR_LOAD);
      initial.push(run * spec.rated * COMPRESSOR_LOAD * tanPhiAt(COMPRESSOR_LOAD));
    }
    return {
      spec,
      metrics: METRICS[spec.kind],
      key,
      anchor,
      initial,
      scale: 0.45 + 0.85 * uniform(key, SALT.scale, 0),
      supplies:
        spec.kind === 'transformer'
          ? (spec.supplies ?? []).filter((s) => isElectricLoad(s.kind)).map((s) => this.model(s))
          : [],
      tH0: Number.NaN,
      tE0: 0,
      tH1: Number.NaN,
      tE1: 0,
      kH: Number.NaN,
      kPrev: 0,
      k0: 0,
      k1: 0,
      segStart: Number.NaN,
      segH: Number.NaN,
      segOfH: Number.NaN,
      pH: Number.NaN,
      pQ0: 0,
      pQ1: 0,
      plan: undefined,
    };
  }

  // ---- calendar ----

  /** Local hour of day (0–23) + 32 × weekend + 64 × local day number, of the instant h × HOUR. */
  private local(h: number): number {
    let packed = this.localCache.get(h);
    if (packed === undefined) {
      const ts = h * HOUR;
      const local = ts + this.calendar.offset(ts);
      const day = Math.floor(local / DAY);
      const hod = Math.floor((local - day * DAY) / HOUR);
      const weekday = (((day + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday; 0 = Sunday
      packed = hod + (weekday === 0 || weekday === 6 ? 32 : 0) + day * 64;
      if (this.localCache.size > 200_000) this.localCache.clear();
      this.localCache.set(h, packed);
    }
    return packed;
  }

  /** Local hour of day with fraction, of hour `h` plus fraction `f`. */
  private localHour(h: number, f: number): number {
    return (this.local(h) & 31) + f;
  }

  /** Outdoor temperature (℃): 15 at 03:00, 27 at 15:00 local. */
  private ambient(h: number, f: number): number {
    return 21 + 6 * Math.sin((2 * Math.PI * (this.localHour(h, f) - 9)) / 24);
  }

  /**
   * The day's mean outdoor temperature (℃) of local day `day`: a seasonal curve of a
   * subtropical plant (about 5 ℃ in mid-January, 28 ℃ in mid-July) and a day's weather (±3 ℃).
   */
  dayTemperature(day: number): number {
    const season = Math.cos((2 * Math.PI * (day - 15)) / 365.25);
    return 16.5 - 11.5 * season + 3 * (2 * uniform(this.seed, SALT.weather, day) - 1);
  }

  /** Outdoor temperature (℃) at hour `h` plus fraction `f`: the day's mean ± 4 ℃, coolest at 03:00. */
  outdoor(h: number, f: number): number {
    const packed = this.local(h);
    return (
      this.dayTemperature(Math.floor(packed / 64)) +
      4 * Math.sin((2 * Math.PI * (this.localHour(h, f) - 9)) / 24)
    );
  }

  /** The mean load (fraction of rated) at the start of hour `h`: shape × day factor × hour factor. */
  knot(m: ThingModel, h: number): number {
    const packed = this.local(h);
    const hod = packed & 31;
    const weekend = (packed & 32) !== 0;
    const day = Math.floor(packed / 64);
    const base = (WEEKDAY[m.spec.profile][hod] ?? 0.5) * (weekend ? WEEKEND_FACTOR : 1);
    const dayFactor = 1 + 0.08 * (2 * uniform(m.key, SALT.day, day) - 1);
    const hourFactor = 1 + 0.04 * (2 * uniform(m.key, SALT.hour, h) - 1);
    if (m.spec.profile !== 'production') {
      const t = this.dayTemperature(day);
      const hvac =
        m.spec.profile === 'office'
          ? 1 + 0.03 * Math.max(0, HEATING_BASE - t) + 0.04 * Math.max(0, t - COOLING_BASE)
          : 1 + 0.02 * Math.max(0, t - COOLING_BASE);
      return base * dayFactor * hourFactor * hvac;
    }
    return base * dayFactor * hourFactor;
  }

  /** Loads knots of hours h−1, h, h+1 into the model's cache. */
  private knots(m: ThingModel, h: number): void {
    if (m.kH === h) return;
    if (m.kH === h - 1) {
      m.kPrev = m.k0;
      m.k0 = m.k1;
    } else {
      m.kPrev = this.knot(m, h - 1);
      m.k0 = this.knot(m, h);
    }
    m.k1 = this.knot(m, h + 1);
    m.kH = h;
  }

  // ---- silence, replacement ----

  /** Whether the thing is silent (sends nothing) at `ts`: a gap of 2–15 minutes, ~once per 10 days. */
  silent(m: ThingModel, ts: number): boolean {
    const h = Math.floor(ts / HOUR);
    if (uniform(m.key, SALT.gap, h) >= GAP_CHANCE) return false;
    const start = h * HOUR + Math.floor(uniform(m.key, SALT.gapStart, h) * 45) * 60_000;
    const length = (2 + Math.floor(uniform(m.key, SALT.gapLength, h) * 14)) * 60_000;
    return ts >= start && ts < start + length;
  }

  /** Hour the meter was last replaced at or before hour `h` (its counter restarted at 0), if any. */
  replacedAt(m: ThingModel, h: number): number | undefined {
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

  // ---- compressors ----

  private tripHash(m: ThingModel, h: number): boolean {
    return uniform(m.key, SALT.trip, h) < TRIP_CHANCE;
  }

  /** Duty from demand alone: off below 18 % demand, on load continuously above 92 %. */
  private rawDuty(m: ThingModel, h: number): number {
    const demand = this.knot(m, h) * m.scale;
    if (demand < 0.18) return 0;
    if (demand > 0.92) return 1;
    return demand;
  }

  private tripped(m: ThingModel, h: number): boolean {
    return this.tripHash(m, h) && !this.tripHash(m, h - 1) && this.rawDuty(m, h) > 0;
  }

  /** Share of hour h on load (0 the hour after a trip). */
  private duty(m: ThingModel, h: number): number {
    return this.tripped(m, h - 1) ? 0 : this.rawDuty(m, h);
  }

  /** The compressor's plan for hour h: duty, cycles, trip; the hour after a trip it stays off. */
  compressorHour(m: ThingModel, h: number): CompressorHour {
    if (m.plan?.h === h) return m.plan;
    const d = this.duty(m, h);
    const prevDuty = this.duty(m, h - 1);
    const plan: CompressorHour = {
      h,
      duty: d,
      cycles: d >= 1 ? 1 : 2 + Math.floor(uniform(m.key, SALT.cycles, h) * 3),
      tripAt: this.tripped(m, h) ? 0.1 + 0.8 * uniform(m.key, SALT.tripAt, h) : 1,
      prevOn: prevDuty >= 1 && !this.tripped(m, h - 1),
    };
    m.plan = plan;
    return plan;
  }

  /** Hours on load in hour `p.h` up to fraction f, and the starts (off → on) up to f. */
  private compressorUpTo(p: CompressorHour, f: number): [onHours: number, starts: number] {
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

  // ---- counters ----

  /**
   * Whole-hour increments of the counters' sums for hour h: energy in rated-hours (meters: and
   * reactive energy, at the power factor of the hour's mean load); compressors: on-hours, starts.
   */
  private hourly(m: ThingModel, h: number, k0: number, k1: number): [number, number] {
    if (m.spec.kind === 'compressor') return this.compressorUpTo(this.compressorHour(m, h), 1);
    // Transformers: in kWh, what its loads drew in the hour plus its losses at their mean power.
    if (m.spec.kind === 'transformer') {
      const loads = this.loadEnergy(m, h);
      return [loads + this.transformerLoss(m, loads), 0];
    }
    const energy = (k0 + k1) / 2;
    // Lines: the second sum is the output, the load above the idle load.
    if (m.spec.kind === 'line') return [energy, Math.max(0, energy - LINE_IDLE_LOAD)];
    return [energy, m.spec.kind === 'meter' ? energy * tanPhiAt(energy) : 0];
  }

  /** Sums from the counter's segment start to hour h (prefix cache, advanced incrementally). */
  private prefix(m: ThingModel, h: number): void {
    if (m.segH !== h) {
      m.segOfH = this.replacedAt(m, h) ?? m.anchor;
      m.segH = h;
    }
    const seg = m.segOfH;
    if (seg !== m.segStart || !(m.pH <= h)) {
      m.segStart = seg;
      m.pH = seg;
      m.pQ0 = 0;
      m.pQ1 = 0;
    }
    if (m.pH >= h) return;
    const shaped = m.spec.kind !== 'compressor' && m.spec.kind !== 'transformer';
    let k0 = shaped ? this.knot(m, m.pH) : 0;
    for (; m.pH < h; m.pH++) {
      const k1 = shaped ? this.knot(m, m.pH + 1) : 0;
      const [q0, q1] = this.hourly(m, m.pH, k0, k1);
      m.pQ0 += q0;
      m.pQ1 += q1;
      k0 = k1;
    }
  }

  /**
   * Counter sums at `ts`: [energy integral in rated-hours, reactive integral (meters) or 0], or for
   * compressors [on-hours, starts]. `initial` applies only when no replacement happened since the
   * anchor. Within an hour the reactive part grows with the energy at that hour's power factor,
   * so it meets the next whole hour's sum exactly.
   */
  counters(m: ThingModel, ts: number): { q0: number; q1: number; elapsedHours: number; replaced: boolean } {
    const hRaw = Math.floor(ts / HOUR);
    const h = Math.max(hRaw, m.anchor);
    const f = hRaw < m.anchor ? 0 : (ts - h * HOUR) / HOUR;
    this.prefix(m, h);
    let q0 = m.pQ0;
    let q1 = m.pQ1;
    if (m.spec.kind === 'compressor') {
      const [on, starts] = this.compressorUpTo(this.compressorHour(m, h), f);
      q0 += on;
      q1 += starts;
    } else if (m.spec.kind === 'transformer') {
      // The loads' energy so far in the hour, plus the hour's losses pro rata: at f = 1 it is
      // the whole hour's sum, so the counter runs on without a seam.
      for (const load of m.supplies) q0 += this.energyUpTo(load, h, f);
      q0 += f * this.transformerLoss(m, this.loadEnergy(m, h));
    } else {
      this.knots(m, h);
      const part = m.k0 * f + ((m.k1 - m.k0) * f * f) / 2;
      q0 += part;
      if (m.spec.kind === 'meter') q1 += part * tanPhiAt((m.k0 + m.k1) / 2);
      // The hour's output so far, equal to the whole hour's at f = 1 (continuous across hours).
      if (m.spec.kind === 'line') q1 += Math.max(0, f * (m.k0 + ((m.k1 - m.k0) * f) / 2 - LINE_IDLE_LOAD));
    }
    return { q0, q1, elapsedHours: h - m.segStart + f, replaced: m.segStart !== m.anchor };
  }

  // ---- transformers ----

  /** A load's energy (kWh) in hour `h` up to fraction `f`: the integral of its mean power. */
  private energyUpTo(load: ThingModel, h: number, f: number): number {
    if (load.spec.kind === 'compressor') {
      return load.spec.rated * COMPRESSOR_LOAD * this.compressorUpTo(this.compressorHour(load, h), f)[0];
    }
    this.knots(load, h);
    return load.spec.rated * (load.k0 * f + ((load.k1 - load.k0) * f * f) / 2);
  }

  /** What a transformer's loads drew in hour `h`, kWh (= their mean power in kW). */
  loadEnergy(m: ThingModel, h: number): number {
    if (m.tH1 === h) return m.tE1;
    if (m.tH0 === h) return m.tE0;
    let energy = 0;
    for (const load of m.supplies) {
      energy +=
        load.spec.kind === 'compressor'
          ? load.spec.rated * COMPRESSOR_LOAD * this.compressorUpTo(this.compressorHour(load, h), 1)[0]
          : (load.spec.rated * (this.knot(load, h) + this.knot(load, h + 1))) / 2;
    }
    m.tH0 = m.tH1;
    m.tE0 = m.tE1;
    m.tH1 = h;
    m.tE1 = energy;
    return energy;
  }

  /** A transformer's losses (kW) when its loads draw `loads` kW: no-load plus load loss. */
  transformerLoss(m: ThingModel, loads: number): number {
    const { rated } = m.spec;
    const s = loads / (TRANSFORMER_PF * rated);
    return rated * (NO_LOAD_LOSS + LOAD_LOSS * s * s);
  }

  /**
   * Active power (kW) a load draws at `ts`, whether or not its meter reports then: a meter's
   * cabinet follows its load shape (±3 % meter noise), a compressor its rated point while on load.
   */
  power(m: ThingModel, ts: number): number {
    const h = Math.floor(ts / HOUR);
    const f = (ts - h * HOUR) / HOUR;
    const sec = Math.floor(ts / 1000);
    if (m.spec.kind === 'compressor') {
      return isRunning(this.compressorHour(m, h), f)
        ? m.spec.rated * COMPRESSOR_LOAD * (1 + 0.02 * noise(m.key, SALT.sample, sec))
        : 0;
    }
    this.knots(m, h);
    return m.spec.rated * (m.k0 + (m.k1 - m.k0) * f) * (1 + 0.03 * noise(m.key, SALT.sample, sec));
  }

  // ---- samples ----

  /**
   * Writes the thing's values at `ts` into `out` (in `model.metrics` order). Returns false when
   * the thing is silent at that instant (it sends nothing: a gap).
   */
  sample(m: ThingModel, ts: number, out: Float64Array | number[]): boolean {
    if (this.silent(m, ts)) return false;
    const h = Math.floor(ts / HOUR);
    const f = (ts - h * HOUR) / HOUR;
    const sec = Math.floor(ts / 1000);
    const key = m.key;
    const { rated } = m.spec;
    switch (m.spec.kind) {
      case 'meter': {
        this.knots(m, h);
        const load = m.k0 + (m.k1 - m.k0) * f;
        const p = this.power(m, ts);
        const c = this.counters(m, ts);
        const ep = (c.replaced ? 0 : (m.initial[0] ?? 0)) + rated * c.q0;
        const bus = 221 + 1.5 * (2 * uniform(this.seed, SALT.bus, h) - 1) - 3 * Math.min(load, 1.2);
        const pf = clamp(powerFactorAt(load) + 0.012 * noise(key, SALT.pf, sec), 0.85, 0.98);
        out[0] = round(p, 2);
        out[1] = round(ep, 2);
        for (let i = 0; i < 3; i++) {
          const ui = bus + 1.2 * noise(m.key, SALT.volt + 100 * i, sec);
          out[2 + i] = round(ui, 1);
          const amps = (p * 1000) / (3 * ui * pf);
          // A cabinet's three-phase motors draw nearly balanced currents: each phase keeps its own
          // share (±1 %, its wiring and single-phase odds and ends) with a little noise, a NEMA
          // current imbalance of 0.3–1.9 %, under the diagram's 2 % unless a phase fails.
          const share = 1 + 0.01 * (2 * uniform(m.key, SALT.phase + 100 * i, 0) - 1);
          out[5 + i] = round(amps * share * (1 + 0.003 * noise(m.key, SALT.amp + 100 * i, sec)), 2);
        }
        out[8] = round(pf, 3);
        out[9] = round(50 + 0.03 * noise(this.seed, SALT.freq, sec) + 0.01 * noise(key, SALT.freq, sec), 3);
        out[10] = round((c.replaced ? 0 : (m.initial[1] ?? 0)) + rated * c.q1, 2);
        return true;
      }
      case 'transformer': {
        // Its input is what its loads draw at this instant (silent meters included: a gap in a
        // meter's report is not a gap in the current) plus its own losses.
        let loads = 0;
        for (const load of m.supplies) loads += this.power(load, ts);
        const p =
          (loads + this.transformerLoss(m, loads)) *
          (1 + TRANSFORMER_METER_NOISE * noise(key, SALT.sample, sec));
        const c = this.counters(m, ts);
        const rate = p / (rated * TRANSFORMER_PF);
        // The oil follows the load about an hour late: the previous hour's mean load towards this one's.
        const hourRate = (hour: number) => {
          const mean = this.loadEnergy(m, hour);
          return (mean + this.transformerLoss(m, mean)) / (rated * TRANSFORMER_PF);
        };
        const before = hourRate(h - 1);
        const lagRate = before + (hourRate(h) - before) * f;
        const oil = this.ambient(h, f) + 12 + 38 * lagRate * lagRate + 0.3 * noise(key, SALT.temp, sec);
        out[0] = round(p, 2);
        out[1] = round((m.initial[0] ?? 0) + c.q0, 2);
        out[2] = round(rate * 100, 2);
        out[3] = round(oil, 1);
        out[4] = round(oil + 6 + 22 * rate * rate + 0.3 * noise(key, SALT.temp + 1, sec), 1);
        out[5] = round(this.outdoor(h, f) + 0.2 * noise(key, SALT.weather, sec), 1);
        return true;
      }
      case 'compressor': {
        const plan = this.compressorHour(m, h);
        const c = this.counters(m, ts);
        const [run0, starts0, stop0, ep0, eq0] = m.initial as [number, number, number, number, number];
        const running = isRunning(plan, f);
        out[0] = running ? 1 : 0;
        out[1] = round(run0 + c.q0, 4);
        out[2] = starts0 + c.q1;
        out[3] = round(stop0 + (c.elapsedHours - c.q0), 4);
        out[4] = running ? round(rated * COMPRESSOR_LOAD * (1 + 0.02 * noise(key, SALT.sample, sec)), 2) : 0;
        out[5] = round(ep0 + rated * COMPRESSOR_LOAD * c.q0, 2);
        out[6] = round(pressure(plan, f) + 0.004 * noise(key, SALT.pressure, sec), 3);
        // Free air delivery ≈ 0.17 m³/min per kW, published in m³/h.
        out[7] = running ? round(rated * 0.17 * 60 * (1 + 0.02 * noise(key, SALT.sample + 1, sec)), 1) : 0;
        out[8] = round(this.motorTemp(m, ts), 1);
        // On load the motor runs near its rated point, at that point's power factor.
        out[9] = round(eq0 + rated * COMPRESSOR_LOAD * tanPhiAt(COMPRESSOR_LOAD) * c.q0, 2);
        return true;
      }
      case 'water':
      case 'gas': {
        this.knots(m, h);
        const load = m.k0 + (m.k1 - m.k0) * f;
        const c = this.counters(m, ts);
        out[0] = round(Math.max(0, rated * load * (1 + 0.08 * noise(key, SALT.sample, sec))), 2);
        out[1] = round((c.replaced ? 0 : (m.initial[0] ?? 0)) + rated * c.q0, 3);
        return true;
      }
      case 'line': {
        // Pieces per hour at full load (`rated`) for the load above the idle load; whole pieces.
        this.knots(m, h);
        const load = m.k0 + (m.k1 - m.k0) * f;
        const c = this.counters(m, ts);
        const above = Math.max(0, load - LINE_IDLE_LOAD) / (1 - LINE_IDLE_LOAD);
        out[0] = round(rated * above * (1 + 0.05 * noise(key, SALT.sample, sec)), 1);
        out[1] = Math.floor((m.initial[0] ?? 0) + (rated * c.q1) / (1 - LINE_IDLE_LOAD));
        return true;
      }
      case 'fire': {
        const state = this.fireState(m, ts);
        const ambient = this.ambient(h, f) + 3;
        if (state.kind === 'alarm') {
          // Smoke builds up over a few minutes; the detector alarms from its threshold (~1 %/m) on.
          const ramp = Math.min(1, (ts - state.start) / 180_000);
          out[0] = round(state.level * (0.3 + 0.7 * ramp) + 0.2 * noise(key, SALT.smoke, sec), 3);
          out[1] = round(ambient + 18 * ramp + 0.5 * noise(key, SALT.temp, sec), 1);
          out[2] = 1;
        } else {
          out[0] = state.kind === 'fault' ? 0 : round(0.03 + 0.015 * noise(key, SALT.smoke, sec), 3);
          out[1] = round(ambient + 0.4 * noise(key, SALT.temp, sec), 1);
          out[2] = state.kind === 'fault' ? 2 : 0;
        }
        return true;
      }
    }
  }

  /**
   * The compressor motor's winding temperature (℃) at `ts`: ambient + 10 stopped, up to 52 more on
   * load, following the load about an hour late like a transformer's oil; an overheating episode
   * (`overheat`) lifts it towards its peak, as far as the load drives it.
   */
  motorTemp(m: ThingModel, ts: number): number {
    const h = Math.floor(ts / HOUR);
    const f = (ts - h * HOUR) / HOUR;
    const before = this.duty(m, h - 1);
    const heat = before + (this.duty(m, h) - before) * f;
    const cold = this.ambient(h, f) + 10;
    const normal = cold + 52 * heat;
    const episode = this.overheat(m, ts);
    // A motor on load half the time or more reaches the peak; a lightly loaded one stays cooler.
    const hot = episode ? Math.min(1, 2 * heat) * episode.share * Math.max(0, episode.peak - normal) : 0;
    return normal + hot + 0.4 * noise(m.key, SALT.motor, Math.floor(ts / 1000));
  }

  /**
   * An overheating episode of a compressor motor under way at `ts`: its peak (℃) and how far
   * towards it the winding is (0–1: a linear rise, then a cooling that slows as it nears normal).
   */
  overheat(
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
  fireState(
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

  /** The values at `ts` keyed by metric identifier, or undefined when the thing is silent. */
  values(m: ThingModel, ts: number): Record<string, number> | undefined {
    const out = new Array<number>(m.metrics.length);
    if (!this.sample(m, ts, out)) return undefined;
    const values: Record<string, number> = {};
    m.metrics.forEach((metric, i) => {
      values[metric] = out[i] as number;
    });
    return values;
  }
}

const round = (x: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

function isRunning(p: CompressorHour, f: number): boolean {
  if (p.duty <= 0 || f >= p.tripAt) return false;
  if (p.duty >= 1) return true;
  const slot = 1 / p.cycles;
  return f - Math.floor(f / slot) * slot < p.duty * slot;
}

/**
 * Outlet pressure (MPa) of the hysteresis control: it rises from the low to the high limit while
 * the machine is on load and falls back while it is off; a tripped machine loses pressure.
 */
function pressure(p: CompressorHour, f: number): number {
  if (f >= p.tripAt) return 0.45;
  if (p.duty <= 0) return 0.6;
  if (p.duty >= 1) return 0.67;
  const slot = 1 / p.cycles;
  const x = f - Math.floor(f / slot) * slot;
  const on = p.duty * slot;
  const band = PRESSURE_HIGH - PRESSURE_LOW;
  return x < on ? PRESSURE_LOW + (band * x) / on : PRESSURE_HIGH - (band * (x - on)) / (slot - on);
}
