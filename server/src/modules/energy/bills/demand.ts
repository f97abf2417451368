import { DAY, MINUTE } from '@kilowatch/contract';
import { counterIncrement, type SeriesKey, type TelemetryStore } from '../../../telemetry/index.ts';

/**
 * Maximum demand from a cumulative energy register (docs/tariffs.md "Maximum demand"). A reading at
 * instant t holds all energy up to t, so the energy of a window [a, b) is E(b) − E(a); where no
 * reading sits exactly on an edge, E there is interpolated linearly between the readings around it.
 * The bill reads the register with `demandRegister` and takes its maximum with `maxDemand`.
 */

/** The utilities' demand window. */
const DEMAND_WINDOW = 15 * MINUTE;
/** The register is sampled on this grid: sliding windows move by it, fixed ones start on every 15th. */
export const DEMAND_STEP = MINUTE;

export type DemandMode = 'fixed' | 'sliding';

/** Raw readings this far outside the month place its first and last edges between readings. */
const DEMAND_MARGIN = DAY;
/** Raw points asked of the store in one read of all the meters (48 MB of columns). */
const POINTS_CHUNK = 2_000_000;

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
 * of equal windows wins, windows being equal when their kW to the bill's 4 decimals are: registers
 * summed in another order differ in the last bits, which must not move the window. Null when no
 * window fits.
 */
export function maxDemand(
  register: Pick<EdgeRegister, 'values' | 'start' | 'step'>,
  mode: DemandMode,
  window = DEMAND_WINDOW,
): DemandMax | null {
  const { values, start, step } = register;
  const span = Math.round(window / step);
  const stride = mode === 'fixed' ? span : 1;
  const hours = window / 3_600_000;
  let best = -1;
  let bestEnergy = 0;
  let bestKey = 0;
  for (let i = 0; i + span < values.length; i += stride) {
    const energy = (values[i + span] as number) - (values[i] as number);
    const key = Math.round((energy / hours) * 1e4);
    if (best < 0 || key > bestKey) {
      best = i;
      bestEnergy = energy;
      bestKey = key;
    }
  }
  if (best < 0) return null;
  const from = start + best * step;
  return { start: from, end: from + window, energy: bestEnergy, kw: bestEnergy / hours };
}

/** Where `demandRegister` reads. */
export interface RegisterSource {
  store: Pick<TelemetryStore, 'bucketColumns' | 'pointColumns' | 'summedRegister'>;
  now: () => number;
  /** RETENTION_RAW_DAYS: before it, a meter's raw readings are gone (without it, raw only). */
  rawRetentionDays?: number | undefined;
  /** Raw points asked of the store in one read (default POINTS_CHUNK; a test pages with a few). */
  pointsPerRead?: number | undefined;
}

/**
 * The summed energy register of `series` at every minute edge of [start, end] (docs/tariffs.md
 * "Maximum demand"): what the store's `summedRegister` answers from its aggregates, and the other
 * meters from their raw readings, read for all of them at once; such a meter's minutes before its
 * first raw reading (past raw retention) come from the minute rollups' consumption.
 */
export async function demandRegister(
  source: RegisterSource,
  meters: readonly SeriesKey[],
  start: number,
  end: number,
): Promise<EdgeRegister> {
  const { store } = source;
  const horizon =
    source.rawRetentionDays === undefined
      ? Number.NEGATIVE_INFINITY
      : source.now() - source.rawRetentionDays * DAY;
  const register = new EdgeRegister(start, DEMAND_STEP, Math.round((end - start) / DEMAND_STEP) + 1);
  const from = start - DEMAND_MARGIN;
  const to = end + DEMAND_MARGIN;
  let series = meters;
  if (store.summedRegister) {
    const { start: s, step, count } = register;
    const answer = await store.summedRegister(meters, { start: s, step, count }, from, to);
    register.values.set(answer.values);
    series = answer.unanswered.map((i) => meters[i] as SeriesKey);
  }
  if (series.length === 0) return register;
  const pageSize = source.pointsPerRead ?? POINTS_CHUNK;
  /** The meter being fed (−1: none yet), and whether its next reading is its first raw one. */
  let current = -1;
  let first = true;
  /** Starts meter `i` (and every meter before it without raw readings) at its first reading `firstRaw`. */
  const beginMeter = async (i: number, firstRaw: number) => {
    for (let k = current + 1; k <= i; k++) {
      if (current >= 0) register.endMeter();
      current = k;
      first = true;
      const firstTs = k === i ? firstRaw : to;
      if (firstTs > start && start < horizon) {
        const upTo = Math.min(end, Math.floor((firstTs - start) / MINUTE) * MINUTE + start);
        if (upTo > start) await addMinutes(store, register, series[k] as SeriesKey, start, upTo);
      }
    }
  };
  let resumeAt = 0;
  let after: number | undefined;
  for (;;) {
    const page = await store.pointColumns(series.slice(resumeAt), from, to, pageSize, after);
    const { index, ts, values } = page;
    for (let r = 0; r < ts.length; r++) {
      const i = resumeAt + (index[r] as number);
      if (i !== current) await beginMeter(i, ts[r] as number);
      if (first) register.rebase(ts[r] as number, values[r] as number);
      else register.add(ts[r] as number, values[r] as number);
      first = false;
    }
    if (ts.length < pageSize) break;
    resumeAt = current;
    after = ts[ts.length - 1] as number;
  }
  await beginMeter(series.length - 1, current === series.length - 1 ? start : to);
  if (current >= 0) register.endMeter();
  return register;
}

/** A meter's minute consumption over [from, to) as register readings at each minute's end. */
async function addMinutes(
  store: Pick<TelemetryStore, 'bucketColumns'>,
  register: EdgeRegister,
  series: SeriesKey,
  from: number,
  to: number,
): Promise<void> {
  const { starts, values } = await store.bucketColumns({
    series: [series],
    start: from,
    end: to,
    bucket: { widthMs: MINUTE },
    aggregator: 'delta',
  });
  let total = 0;
  register.add(from, 0);
  for (let i = 0; i + 1 < starts.length; i++) {
    const kwh = values[i] as number;
    if (Number.isNaN(kwh)) continue;
    total += kwh;
    register.add(starts[i + 1] as number, total);
  }
}
