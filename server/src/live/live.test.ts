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
    const off = live.subscribe((values) => seen.push([...values]));
    live.publish([{ thingId: 1, metric: 'p', ts: 1, value: 1 }]);
    live.publish([]);
    off();
    live.publish([{ thingId: 1, metric: 'p', ts: 2, value: 2 }]);
    expect(seen).toEqual([[{ thingId: 1, metric: 'p', ts: 1, value: 1 }]]);
    expect(errors).toHaveLength(2);
  });
});
