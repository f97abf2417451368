import { PlantCalendar } from '@kilowatch/contract/calendar';
import { compressorUpTo, isRunning, pressure } from './compressor.ts';
import { fireState, overheat, replacedAt, silent } from './events.ts';
import { clamp, noise, round, stringKey, uniform } from './hash.ts';
import { METRICS, type SimThingSpec } from './kinds.ts';
import type { CompressorHour, ThingModel } from './model.ts';
import {
  ANCHOR_BASE_HOUR,
  COMPRESSOR_LOAD,
  COOLING_BASE,
  HEATING_BASE,
  INITIAL_TAN_PHI,
  LINE_IDLE_LOAD,
  LOAD_LOSS,
  NO_LOAD_LOSS,
  powerFactorAt,
  SALT,
  TRANSFORMER_METER_NOISE,
  TRANSFORMER_PF,
  TRIP_CHANCE,
  tanPhiAt,
  WEEKDAY,
  WEEKEND_FACTOR,
} from './shapes.ts';
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
export interface GeneratorOptions {
  seed?: number;
  /** IANA zone of the plant: shifts and weekends are local. */
  timeZone: string;
}

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

  // ---- counters ----

  /**
   * Whole-hour increments of the counters' sums for hour h: energy in rated-hours (meters: and
   * reactive energy, at the power factor of the hour's mean load); compressors: on-hours, starts.
   */
  private hourly(m: ThingModel, h: number, k0: number, k1: number): [number, number] {
    if (m.spec.kind === 'compressor') return compressorUpTo(this.compressorHour(m, h), 1);
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
      m.segOfH = replacedAt(m, h) ?? m.anchor;
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
      const [on, starts] = compressorUpTo(this.compressorHour(m, h), f);
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
      return load.spec.rated * COMPRESSOR_LOAD * compressorUpTo(this.compressorHour(load, h), f)[0];
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
          ? load.spec.rated * COMPRESSOR_LOAD * compressorUpTo(this.compressorHour(load, h), 1)[0]
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
    if (silent(m, ts)) return false;
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
        const state = fireState(m, ts);
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
    const episode = overheat(m, ts);
    // A motor on load half the time or more reaches the peak; a lightly loaded one stays cooler.
    const hot = episode ? Math.min(1, 2 * heat) * episode.share * Math.max(0, episode.peak - normal) : 0;
    return normal + hot + 0.4 * noise(m.key, SALT.motor, Math.floor(ts / 1000));
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
