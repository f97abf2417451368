/**
 * Counter math for cumulative energy counters (kWh meters, operating hours, pulse counts).
 *
 * Consumption over a period is the sum of the increments between consecutive samples, where:
 * - a rise is the increment itself: `cur − prev`;
 * - a drop to below half of the previous value is a reset or rollover: the counter restarted
 *   from 0 and counted up to `cur`, so the increment is `max(cur, 0)` (what was counted between
 *   the last sample and the reset is unknown and lost; for a rollover at a known maximum M the
 *   true increment would be `M − prev + cur`, which the store does not know);
 * - a smaller drop is jitter or a meter correction: increment 0, and counting resumes from the
 *   new value.
 *
 * The SQL in the DuckDB store (`INCREMENT_SQL`) computes exactly the same thing, operation for
 * operation, so rollups and these functions agree bit for bit.
 */

/** Increment of a cumulative counter from `prev` to `cur`; 0 when there is no previous sample. */
export function counterIncrement(prev: number | null | undefined, cur: number): number {
  if (prev === null || prev === undefined) return 0;
  if (cur >= prev) return cur - prev;
  if (cur < prev / 2) return cur > 0 ? cur : 0;
  return 0;
}

/** SQL expression for the same rule, given the previous value `pv` (NULL for none) and `v`. */
export const incrementSql = (pv: string, v: string): string =>
  `CASE WHEN ${pv} IS NULL THEN 0.0 WHEN ${v} >= ${pv} THEN ${v} - ${pv} WHEN ${v} < ${pv} / 2 THEN greatest(${v}, 0.0) ELSE 0.0 END`;

/**
 * Increments of each sample of a series (oldest first) from its predecessor; the first sample's
 * predecessor is `prev` (the last sample before the range), if known.
 */
export function counterIncrements(values: readonly number[], prev?: number | null): number[] {
  const out = new Array<number>(values.length);
  let p: number | null | undefined = prev;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    out[i] = counterIncrement(p, v);
    p = v;
  }
  return out;
}

/** Consumption: the sum of the increments, added oldest first. */
export function counterConsumption(values: readonly number[], prev?: number | null): number {
  let sum = 0;
  for (const inc of counterIncrements(values, prev)) sum += inc;
  return sum;
}

/** A reading of a cumulative register at `ts` (ms). */
export interface Reading {
  ts: number;
  value: number;
}

/**
 * The register's energy E(t) at each of `times` (ascending), counted from the first reading:
 * the sum of the increments of the readings stamped at or before t (a reading holds all energy
 * up to its instant). Readings oldest first; `prev` is the reading before them, if any (the
 * first reading then steps from it). Between readings E stays at the last one's value: a gap's
 * energy appears with the reading that ends it (docs/telemetry-store.md, "Counter math").
 */
export function energyAt(
  readings: readonly Reading[],
  times: readonly number[],
  prev?: Reading | null,
): number[] {
  const out = new Array<number>(times.length);
  let e = 0;
  let i = 0;
  let p = prev?.value ?? null;
  for (let k = 0; k < times.length; k++) {
    const t = times[k] as number;
    for (; i < readings.length && (readings[i] as Reading).ts <= t; i++) {
      const v = (readings[i] as Reading).value;
      e += counterIncrement(p, v);
      p = v;
    }
    out[k] = e;
  }
  return out;
}

/**
 * Energy of each window [edges[k], edges[k + 1]) as E(b) − E(a): the increments of the readings
 * in (a, b], so a reading stamped on an edge closes the window that ends there. The store's
 * `delta` buckets answer the same (demand windows and tariff slots can use this on readings).
 */
export function windowEnergies(
  readings: readonly Reading[],
  edges: readonly number[],
  prev?: Reading | null,
): number[] {
  const out = new Array<number>(Math.max(0, edges.length - 1)).fill(0);
  let p = prev?.value ?? null;
  let k = 0;
  for (const r of readings) {
    const inc = counterIncrement(p, r.value);
    p = r.value;
    while (k < out.length && r.ts > (edges[k + 1] as number)) k++;
    // Summed window by window (not E(b) − E(a) of running totals), as the store adds them.
    if (k < out.length && r.ts > (edges[0] as number)) out[k] = (out[k] as number) + inc;
  }
  return out;
}
