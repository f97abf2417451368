import { MINUTE } from '@kilowatch/contract';
import { counterIncrement } from '../../telemetry/index.ts';

/**
 * Maximum demand from a cumulative energy register (docs/tariffs.md "Maximum demand"). A reading at
 * instant t holds all energy up to t, so the energy of a window [a, b) is E(b) − E(a); where no
 * reading sits exactly on an edge, E there is interpolated linearly between the readings around it.
 * Pure: the bill reads the points and hands them here.
 */

/** The utilities' demand window. */
export const DEMAND_WINDOW = 15 * MINUTE;
/** The register is sampled on this grid: sliding windows move by it, fixed ones start on every 15th. */
export const DEMAND_STEP = MINUTE;

export type DemandMode = 'fixed' | 'sliding';

/**
 * The summed register of several meters at every edge `start + i × step` (i = 0 … count − 1), fed
 * one meter at a time with its readings oldest first. Each meter's register is its counter made
 * monotonic (resets and jitter as the store treats them, `counterIncrement`); before its first reading
 * and after its last it is held flat, so a meter without data adds no energy to any window.
 */
export class EdgeRegister {
  readonly values: Float64Array;
  private prevTs = Number.NaN;
  private prevRaw = 0;
  private prevE = 0;
  private next = 0;

  constructor(
    readonly start: number,
    readonly step: number,
    readonly count: number,
  ) {
    this.values = new Float64Array(count);
  }

  /** The edges a meter's reading at `ts` settles. */
  private settle(ts: number, e: number): void {
    const { start, step, count, values } = this;
    while (this.next < count && start + this.next * step <= ts) {
      const edge = start + this.next * step;
      const at = Number.isNaN(this.prevTs)
        ? e
        : this.prevE + ((e - this.prevE) * (edge - this.prevTs)) / (ts - this.prevTs);
      values[this.next] = (values[this.next] as number) + at;
      this.next++;
    }
  }

  /** The next reading of the current meter (ascending `ts`). */
  add(ts: number, raw: number): void {
    const e = Number.isNaN(this.prevTs) ? 0 : this.prevE + counterIncrement(this.prevRaw, raw);
    if (ts === this.prevTs) return;
    this.settle(ts, e);
    this.prevTs = ts;
    this.prevRaw = raw;
    this.prevE = e;
  }

  /**
   * The current meter's readings go on from another source (raw points after its minute rollups):
   * its register keeps its value, and increments are counted again from `raw` at `ts`.
   */
  rebase(ts: number, raw: number): void {
    if (Number.isNaN(this.prevTs)) {
      this.add(ts, raw);
      return;
    }
    if (ts <= this.prevTs) return;
    this.settle(ts, this.prevE);
    this.prevTs = ts;
    this.prevRaw = raw;
  }

  /** The current meter has no more readings: hold its register at the last one. */
  endMeter(): void {
    const { count, values } = this;
    if (!Number.isNaN(this.prevTs))
      for (; this.next < count; this.next++) values[this.next] = (values[this.next] as number) + this.prevE;
    this.prevTs = Number.NaN;
    this.prevRaw = 0;
    this.prevE = 0;
    this.next = 0;
  }
}

export interface DemandMax {
  /** Window start, ms (clock-aligned in `fixed` mode). */
  start: number;
  /** Window end (exclusive), ms. */
  end: number;
  /** kWh in the window. */
  energy: number;
  /** kW: energy ÷ window length. */
  kw: number;
}

/**
 * The window of highest energy over the register's edges: `fixed` takes the clock-aligned windows
 * [start + k × window, start + (k + 1) × window), `sliding` every window of that length starting on
 * a step (the demand meter's "slip" mode). Windows lie wholly inside the register's range; the first
 * of equal windows wins. Null when no window fits.
 */
export function maxDemand(
  register: Pick<EdgeRegister, 'values' | 'start' | 'step'>,
  mode: DemandMode,
  window = DEMAND_WINDOW,
): DemandMax | null {
  const { values, start, step } = register;
  const span = Math.round(window / step);
  const stride = mode === 'fixed' ? span : 1;
  let best = -1;
  let bestEnergy = 0;
  for (let i = 0; i + span < values.length; i += stride) {
    const energy = (values[i + span] as number) - (values[i] as number);
    if (best < 0 || energy > bestEnergy) {
      best = i;
      bestEnergy = energy;
    }
  }
  if (best < 0) return null;
  const from = start + best * step;
  return { start: from, end: from + window, energy: bestEnergy, kw: bestEnergy / (window / 3_600_000) };
}
