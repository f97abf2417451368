import { MINUTE } from '@kilowatch/contract/calendar';
import { describe, expect, it } from 'vitest';
import { MinuteRows, minutesBound } from './minute-rows.ts';
import { aggregateRun, type MinuteAggregate } from './series.ts';

/** A deterministic pseudo-random sequence in [0, 1). */
const random = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

/** Sorted samples with uneven steps (some on minute starts) and counter resets. */
function samples(n: number, start: number, rnd: () => number): { ts: number[]; values: number[] } {
  const ts: number[] = [];
  const values: number[] = [];
  let t = start;
  let v = 100;
  for (let i = 0; i < n; i++) {
    t += rnd() < 0.2 ? MINUTE - (t % MINUTE) : 1 + Math.floor(rnd() * 40_000);
    v = rnd() < 0.05 ? rnd() * 10 : v + rnd() * 5 - (rnd() < 0.1 ? 3 : 0);
    ts.push(t);
    values.push(v);
  }
  return { ts, values };
}

/** The rows of MinuteRows `r`, as aggregateRun's objects. */
const rowsOf = (m: MinuteRows): { id: number; bucket: number; a: MinuteAggregate }[] =>
  Array.from({ length: m.length }, (_, r) => ({
    id: m.id[r] as number,
    bucket: m.bucket[r] as number,
    a: {
      cnt: m.cnt[r] as number,
      sum: m.sum[r] as number,
      min: m.min[r] as number,
      max: m.max[r] as number,
      first: m.first[r] as number,
      firstTs: m.firstTs[r] as number,
      last: m.last[r] as number,
      lastTs: m.lastTs[r] as number,
      inc: m.inc[r] as number,
      maxGap: m.hasGap[r] ? (m.maxGap[r] as number) : null,
      minTs: m.minTs[r] as number,
      maxTs: m.maxTs[r] as number,
      edge: m.hasEdge[r] ? (m.edge[r] as number) : null,
    },
  }));

describe('MinuteRows', () => {
  it('makes the rows aggregateRun makes, for runs added in several parts', () => {
    const rnd = random(7);
    const series = [
      { id: 3, prev: null, ...samples(500, 1_700_000_000_000, rnd) },
      { id: 9, prev: { ts: 1_700_000_030_000, value: 50 }, ...samples(300, 1_700_000_040_000, rnd) },
      { id: 4, prev: { ts: 1_699_999_000_000, value: 1e6 }, ...samples(1, 1_700_000_000_000, rnd) },
      { id: 5, prev: null, ...samples(0, 1_700_000_000_000, rnd) },
    ];
    const bound = series.reduce(
      (n, s) =>
        n + (s.ts.length === 0 ? 0 : minutesBound(s.ts.length, s.ts[0] as number, s.ts.at(-1) as number)),
      0,
    );
    const m = new MinuteRows(bound);
    const expected: { id: number; bucket: number; a: MinuteAggregate }[] = [];
    for (const s of series) {
      m.begin(s.id, s.prev);
      // Cut where a minute continues across parts, as an in-order batch after its stored head.
      const third = Math.floor(s.ts.length / 3);
      const cuts = [0, third, Math.min(third + 1, s.ts.length), s.ts.length];
      for (let k = 0; k + 1 < cuts.length; k++)
        m.add(s.ts, s.values, cuts[k] as number, cuts[k + 1] as number);
      aggregateRun(
        s.ts,
        s.values,
        0,
        s.ts.length,
        s.prev,
        (t) => t - (t % MINUTE),
        (b) => b,
        (bucket, a) => {
          expected.push({ id: s.id, bucket, a: { ...a } });
        },
      );
    }
    expect(m.length).toBeLessThanOrEqual(bound);
    expect(m.length).toBe(expected.length);
    expect(rowsOf(m)).toEqual(expected);
    expect(expected.some((e) => e.a.edge !== null)).toBe(true);
    expect(expected.some((e) => e.a.maxGap === null)).toBe(true);
  });

  it('orders its rows minute-major, rows added earlier first on the same minute', () => {
    const m = new MinuteRows(10);
    const add = (id: number, ts: number[]) => {
      m.begin(id, null);
      m.add(ts, ts, 0, ts.length);
    };
    add(1, [2 * MINUTE, 3 * MINUTE, 5 * MINUTE]);
    add(2, []);
    add(3, [MINUTE, 3 * MINUTE + 1, 5 * MINUTE + 2, 6 * MINUTE]);
    add(4, [3 * MINUTE]);
    const order = [...m.minuteMajor()];
    expect(order.map((r) => [m.id[r], (m.bucket[r] as number) / MINUTE])).toEqual([
      [3, 1],
      [1, 2],
      [1, 3],
      [3, 3],
      [4, 3],
      [1, 5],
      [3, 5],
      [3, 6],
    ]);
    expect(new MinuteRows(0).minuteMajor()).toHaveLength(0);
    // Minutes far apart for the rows' number (history over days): the same order.
    const far = new MinuteRows(4);
    far.begin(1, null);
    far.add([0, 9_000 * MINUTE], [1, 2], 0, 2);
    far.begin(2, null);
    far.add([5, 9_000 * MINUTE + 7], [1, 2], 0, 2);
    expect([...far.minuteMajor()]).toEqual([0, 2, 1, 3]);
  });

  it('bounds the rows of a run by its samples and by the minutes it spans', () => {
    expect(minutesBound(100, 0, MINUTE - 1)).toBe(1);
    expect(minutesBound(100, MINUTE - 1, MINUTE)).toBe(2);
    expect(minutesBound(3, 0, 100 * MINUTE)).toBe(3);
  });
});
