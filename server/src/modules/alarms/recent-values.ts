import type { LiveValue } from '@kilowatch/contract';

/**
 * The live values of the last `windowMs`, as the hub handed them (batches kept whole: nothing is
 * allocated per value). A replica keeps them for the monitors it does not own, so when it takes a
 * dead replica's partition it judges what arrived while nobody owned it (docs/cluster.md).
 */
export function createRecentValues(windowMs: number, now: () => number) {
  const batches: { at: number; values: readonly LiveValue[] }[] = [];
  let first = 0;
  return {
    add(values: readonly LiveValue[]): void {
      const at = now();
      batches.push({ at, values });
      while (first < batches.length && (batches[first] as { at: number }).at < at - windowMs) first++;
      // Drop the expired head in one splice once it is a good share of the array, not per batch.
      if (first > 1024 && first * 2 > batches.length) {
        batches.splice(0, first);
        first = 0;
      }
    },
    /** Each value kept, oldest first, with the server time it arrived. */
    forEach(fn: (value: LiveValue, arrivedAt: number) => void): void {
      for (let i = first; i < batches.length; i++) {
        const batch = batches[i] as { at: number; values: readonly LiveValue[] };
        for (const v of batch.values) fn(v, batch.at);
      }
    },
  };
}
