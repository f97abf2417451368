import type { LiveValue } from '@kilowatch/contract';
import type { LiveBatch } from '../../live/index.ts';

/**
 * The live values of the last `windowMs`, as the hub handed them (batches kept whole: nothing is
 * allocated per value until a replay asks). A replica keeps them for the monitors it does not own,
 * so when it takes a dead replica's partition it judges what arrived while nobody owned it
 * (docs/cluster.md).
 */
export function createRecentValues(windowMs: number, now: () => number) {
  const batches: { at: number; batch: LiveBatch }[] = [];
  let first = 0;
  return {
    add(batch: LiveBatch): void {
      const at = now();
      batches.push({ at, batch });
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
        const kept = batches[i] as { at: number; batch: LiveBatch };
        for (const v of kept.batch.values()) fn(v, kept.at);
      }
    },
  };
}
