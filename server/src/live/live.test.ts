import type { LiveValue } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { createMemoryLive } from './index.ts';

describe('memory live', () => {
  it('keeps the latest number and string of each series, ignoring late older points', () => {
    const live = createMemoryLive(() => {});
    live.publish([
      { thingId: 1, metric: 'p', ts: 2000, value: 5 },
      { thingId: 1, metric: 'state', ts: 2000, value: 'run' },
    ]);
    live.publish([
      { thingId: 1, metric: 'p', ts: 1000, value: 4 },
      { thingId: 1, metric: 'state', ts: 3000, value: 'stop' },
    ]);
    expect(live.latest({ thingId: 1, metric: 'p' })).toEqual({ thingId: 1, metric: 'p', ts: 2000, value: 5 });
    expect(live.latest({ thingId: 1, metric: 'state' })?.value).toBe('stop');
    expect(live.latest({ thingId: 2, metric: 'p' })).toBeUndefined();
    expect(
      live
        .latestOf(1)
        .map((v) => v.metric)
        .sort(),
    ).toEqual(['p', 'state']);
    expect(live.latestOf(9)).toEqual([]);
  });

  it('tells subscribers each batch until they unsubscribe, and survives a throwing one', () => {
    const errors: unknown[] = [];
    const live = createMemoryLive((e) => errors.push(e));
    const seen: LiveValue[][] = [];
    live.subscribe(() => {
      throw new Error('bad listener');
    });
    const off = live.subscribe((batch) => seen.push([...batch.values()]));
    live.publish([{ thingId: 1, metric: 'p', ts: 1, value: 1 }]);
    live.publish([]);
    off();
    live.publish([{ thingId: 1, metric: 'p', ts: 2, value: 2 }]);
    expect(seen).toEqual([[{ thingId: 1, metric: 'p', ts: 1, value: 1 }]]);
    expect(errors).toHaveLength(2);
  });

  it("takes a thing's columns as publish takes objects: latest per series, one batch to listeners", () => {
    const live = createMemoryLive(() => {});
    live.publish([{ thingId: 1, metric: 'q', ts: 5000, value: 9 }]);
    const seen: { thingId: number | null; size: number; walked: unknown[]; values: unknown[] }[] = [];
    live.subscribe((batch) => {
      const walked: unknown[] = [];
      batch.forEach((thingId, metric, ts, value) => {
        walked.push([thingId, metric, ts, value]);
      });
      seen.push({ thingId: batch.thingId, size: batch.size, walked, values: [...batch.values()] });
    });
    live.publishColumns(
      {
        thingId: 1,
        metrics: ['p', 'q'],
        metric: Uint32Array.from([0, 1, 0, 0]),
        ts: Float64Array.from([2000, 1000, 3000, 3000]),
        values: Float64Array.from([1, 2, 3, 4]),
      },
      [{ thingId: 1, metric: 'state', ts: 3000, value: 'run' }],
    );
    // Of two values at the same time the later wins; q's older point leaves its newer one.
    expect(live.latest({ thingId: 1, metric: 'p' })).toEqual({ thingId: 1, metric: 'p', ts: 3000, value: 4 });
    expect(live.latest({ thingId: 1, metric: 'q' })?.value).toBe(9);
    expect(live.latest({ thingId: 1, metric: 'state' })?.value).toBe('run');
    const rows = [
      [1, 'p', 2000, 1],
      [1, 'q', 1000, 2],
      [1, 'p', 3000, 3],
      [1, 'p', 3000, 4],
      [1, 'state', 3000, 'run'],
    ];
    expect(seen).toEqual([
      {
        thingId: 1,
        size: 5,
        walked: rows,
        values: rows.map(([thingId, metric, ts, value]) => ({ thingId, metric, ts, value })),
      },
    ]);
  });
});
