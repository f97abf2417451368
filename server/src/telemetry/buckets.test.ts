import { describe, expect, it } from 'vitest';
import { nextInterval } from './buckets.ts';
import { random } from './conformance/reference.ts';

/** nextInterval as first written, with null for "none" (the reference). */
function reference(est: number | null, latestTs: number | null, ts: readonly number[]): number | null {
  let prev = latestTs;
  for (const t of ts) {
    if (prev !== null) {
      const d = t - prev;
      est = est === null ? d : est + 0.1 * (Math.min(d, 4 * est) - est);
    }
    prev = t;
  }
  return est;
}

describe('nextInterval', () => {
  it('averages the steps as the reference does, with and without an estimate or a latest sample', () => {
    const rnd = random(7);
    for (let round = 0; round < 500; round++) {
      const est = rnd() < 0.3 ? null : 1 + Math.floor(rnd() * 60_000);
      const latest = rnd() < 0.3 ? null : 1_700_000_000_000 + Math.floor(rnd() * 1000);
      const ts: number[] = [];
      let t = (latest ?? 1_700_000_000_000) + 1;
      for (let i = Math.floor(rnd() * 6); i > 0; i--) {
        t += rnd() < 0.1 ? 3_600_000 : 1 + Math.floor(rnd() * 20_000);
        ts.push(t);
      }
      expect(nextInterval(est, latest, ts)).toBe(reference(est, latest, ts));
    }
  });

  it('is null with neither an estimate nor two samples', () => {
    expect(nextInterval(null, null, [])).toBeNull();
    expect(nextInterval(null, null, [5])).toBeNull();
    expect(nextInterval(null, 5, [])).toBeNull();
    expect(nextInterval(null, 5, [15])).toBe(10);
    expect(nextInterval(1000, null, [])).toBe(1000);
  });
});
