import { HOUR, MINUTE, PlantCalendar } from '@kilowatch/contract/calendar';
import { describe, expect, it } from 'vitest';
import { daysOf, type Grid, HOURS, type MinuteAggregate, RollupRows, rowsBound } from './rollup-rows.ts';
import { aggregateRun } from './series.ts';

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

/** The rows of RollupRows `r`, as aggregateRun's objects. */
const rowsOf = (m: RollupRows): { id: number; bucket: number; a: MinuteAggregate }[] =>
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

/**
 * Samples with steps up to 20 minutes over four days around 2024-03-31, every other bucket of
 * `grid` opening with a sample on its start, and aggregateRun's rows of them at `grid` after the
 * first sample (`prev`).
 */
function gridRun(grid: Grid, rnd: () => number) {
  const ts: number[] = [];
  const values: number[] = [];
  let t = Date.UTC(2024, 2, 29, 20);
  let v = 100;
  let crossings = 0;
  for (let i = 0; i < 600; i++) {
    const next = t + 1 + Math.floor(rnd() * 20 * MINUTE);
    const key = grid.keyOf(next);
    t = grid.startOf(key) > t && crossings++ % 2 === 0 ? grid.startOf(key) : next;
    v = rnd() < 0.05 ? rnd() * 10 : v + rnd() * 5;
    ts.push(t);
    values.push(v);
  }
  const expected: { id: number; bucket: number; a: MinuteAggregate }[] = [];
  const prev = { ts: ts[0] as number, value: 1 };
  aggregateRun(ts, values, 1, ts.length, prev, grid.keyOf, grid.startOf, (bucket, a) => {
    expected.push({ id: 2, bucket, a: { ...a } });
  });
  expect(expected.some((e) => e.a.edge !== null)).toBe(true);
  return { ts, values, prev, expected };
}

type Row = { id: number; bucket: number; a: MinuteAggregate };

/** The same rows in the same order; sums (added in another order) equal to rounding. */
function expectSameRows(got: Row[], expected: Row[]): void {
  expect(got.length).toBe(expected.length);
  for (let i = 0; i < got.length; i++) {
    const { a, ...key } = got[i] as Row;
    const { a: e, ...eKey } = expected[i] as Row;
    expect(key).toEqual(eKey);
    expect(a.sum).toBeCloseTo(e.sum, 6);
    expect(a.inc).toBeCloseTo(e.inc, 6);
    expect({ ...a, sum: 0, inc: 0 }).toEqual({ ...e, sum: 0, inc: 0 });
  }
}

describe('RollupRows', () => {
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
        n + (s.ts.length === 0 ? 0 : rowsBound(s.ts.length, s.ts[0] as number, s.ts.at(-1) as number)),
      0,
    );
    const m = new RollupRows(bound);
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

  it.each([
    ['hours', () => HOURS],
    ['days in Berlin over the spring DST change', () => daysOf(new PlantCalendar('Europe/Berlin'))],
    ['days in Kolkata (midnights on half hours)', () => daysOf(new PlantCalendar('Asia/Kolkata'))],
  ])(
    'makes the %s aggregateRun makes when each commit goes on from the open row of the one before',
    (_, gridOf) => {
      const grid = gridOf();
      const rnd = random(11);
      const { ts, values, prev, expected } = gridRun(grid, rnd);
      // Commits of 1 to 40 points; each keeps only its last row for the next.
      const got: { id: number; bucket: number; a: MinuteAggregate }[] = [];
      let open: ReturnType<RollupRows['rowAt']> | undefined;
      let before = prev;
      for (let from = 1; from < ts.length; ) {
        const to = Math.min(ts.length, from + 1 + Math.floor(rnd() * 40));
        const rows = new RollupRows(
          rowsBound(to - from, ts[from] as number, ts[to - 1] as number, grid),
          grid,
        );
        rows.begin(2, before, open?.key === grid.keyOf(ts[from] as number) ? open : undefined);
        rows.add(ts, values, from, to);
        const made = rowsOf(rows);
        // A row of a bucket that goes on is replaced by the next commit's.
        if (got.length > 0 && made[0]?.bucket === got[got.length - 1]?.bucket) got.pop();
        got.push(...made);
        open = rows.rowAt(rows.current);
        before = { ts: ts[to - 1] as number, value: values[to - 1] as number };
        from = to;
      }
      expectSameRows(got, expected);
      if (grid === HOURS) expect(expected.length).toBeGreaterThan(90);
      else expect(new Set(expected.map((e) => e.bucket)).size).toBeGreaterThanOrEqual(4);
    },
  );

  it('orders its rows minute-major, rows added earlier first on the same minute', () => {
    const m = new RollupRows(10);
    const add = (id: number, ts: number[]) => {
      m.begin(id, null);
      m.add(ts, ts, 0, ts.length);
    };
    add(1, [2 * MINUTE, 3 * MINUTE, 5 * MINUTE]);
    add(2, []);
    add(3, [MINUTE, 3 * MINUTE + 1, 5 * MINUTE + 2, 6 * MINUTE]);
    add(4, [3 * MINUTE]);
    const order = [...m.bucketMajor()];
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
    expect(new RollupRows(0).bucketMajor()).toHaveLength(0);
    // Minutes far apart for the rows' number (history over days): the same order.
    const far = new RollupRows(4);
    far.begin(1, null);
    far.add([0, 9_000 * MINUTE], [1, 2], 0, 2);
    far.begin(2, null);
    far.add([5, 9_000 * MINUTE + 7], [1, 2], 0, 2);
    expect([...far.bucketMajor()]).toEqual([0, 2, 1, 3]);
  });

  it('bounds the rows of a run by its samples and by the minutes it spans', () => {
    expect(rowsBound(100, 0, MINUTE - 1)).toBe(1);
    expect(rowsBound(100, MINUTE - 1, MINUTE)).toBe(2);
    expect(rowsBound(3, 0, 100 * MINUTE)).toBe(3);
    expect(rowsBound(100, HOUR - 1, HOUR, HOURS)).toBe(2);
  });
});
