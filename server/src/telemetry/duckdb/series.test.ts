import { MINUTE } from '@kilowatch/contract/calendar';
import { describe, expect, it } from 'vitest';
import { type Group, lowerBound, remember, type SeriesState, SeriesTable } from './series.ts';

const WINDOW = 15 * MINUTE;
const CAP = 2048;

/** remember() as it was first written (push everything, then cut): the reference. */
function rememberAll(st: { recentTs: number[]; recentValues: number[]; recentFrom: number }, g: Group): void {
  let ts = st.recentTs.slice();
  let values = st.recentValues.slice();
  for (let j = lowerBound(g.ts, st.recentFrom); j < g.ts.length; j++) {
    const t = g.ts[j] as number;
    const i = lowerBound(ts, t);
    if (ts[i] === t) values[i] = g.values[j] as number;
    else {
      ts.splice(i, 0, t);
      values.splice(i, 0, g.values[j] as number);
    }
  }
  const newest = ts.length > 0 ? (ts[ts.length - 1] as number) : 0;
  const k = Math.max(lowerBound(ts, newest - WINDOW), ts.length - CAP);
  if (k > 0) {
    st.recentFrom = (ts[k - 1] as number) + 1;
    ts = ts.slice(k);
    values = values.slice(k);
  }
  st.recentTs = ts;
  st.recentValues = values;
}

const random = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

/** Every point merged so far (a resent time replaces the value): what memory must agree with. */
function mergeInto(all: Map<number, number>, g: Group, from: number): void {
  for (let j = lowerBound(g.ts, from); j < g.ts.length; j++)
    all.set(g.ts[j] as number, g.values[j] as number);
}

describe('remember', () => {
  it('holds every point from recentFrom on, at least the last 15 minutes (or 2,048 points), at most 256 more', () => {
    const rnd = random(11);
    const st: SeriesState = new SeriesTable().create(1, 'P');
    const ref = { recentTs: [] as number[], recentValues: [] as number[], recentFrom: 0 };
    const all = new Map<number, number>();
    let t = 1_700_000_000_000;
    for (let round = 0; round < 400; round++) {
      const kind = rnd();
      const n = Math.floor(rnd() * (kind < 0.3 ? 3000 : 60));
      // In order with steps of 0.1–20 s (0.1–0.6 s: mostly more than 2,048 points in 15 minutes), or late
      // points over the last 20 minutes (some at stored times).
      const late = kind > 0.85;
      const step = kind < 0.15 ? 500 : 20_000;
      const ts: number[] = [];
      let u = late ? t - 20 * MINUTE : t;
      for (let i = 0; i < n; i++) {
        u += late ? Math.floor(rnd() * 30) * 1000 + 1 : 100 + Math.floor(rnd() * step);
        ts.push(late ? Math.floor(u / 1000) * 1000 : u);
      }
      const g: Group = { st, ts: [...new Set(ts)].sort((a, b) => a - b), values: [] };
      g.values = g.ts.map(() => rnd());
      if (!late && g.ts.length > 0) t = g.ts[g.ts.length - 1] as number;
      // Points below the window are not merged (they are stored, not in memory).
      mergeInto(all, g, st.recentFrom);
      remember(st, g);
      rememberAll(ref, g);
      const held = [...all.keys()].filter((x) => x >= st.recentFrom).sort((a, b) => a - b);
      expect(st.recentTs).toEqual(held);
      expect(st.recentValues).toEqual(held.map((x) => all.get(x)));
      expect(st.recentFrom).toBeLessThanOrEqual(ref.recentFrom);
      expect(st.recentTs.length).toBeLessThan(Math.max(ref.recentTs.length, CAP) + 256);
    }
  });

  it('copies the window once per 256 points dropped, not at every commit', () => {
    const st: SeriesState = new SeriesTable().create(1, 'P');
    let copies = 0;
    let arrays = st.recentTs;
    // 5 points a second in commits of one point: the window is full (2,048 points) after 410 s.
    for (let i = 0; i < 10_000; i++) {
      remember(st, { st, ts: [1_700_000_000_000 + i * 200], values: [i] });
      if (st.recentTs !== arrays) copies++;
      arrays = st.recentTs;
    }
    expect(copies).toBeLessThanOrEqual(Math.ceil((10_000 - CAP) / 256));
    expect(st.recentTs[st.recentTs.length - 1]).toBe(1_700_000_000_000 + 9_999 * 200);
    expect(st.recentTs.length).toBeGreaterThanOrEqual(CAP);
  });
});
