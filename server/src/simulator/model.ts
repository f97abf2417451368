import type { SimThingSpec } from './kinds.ts';

/** A compressor's plan for one hour (cache on its model). */
export interface CompressorHour {
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
