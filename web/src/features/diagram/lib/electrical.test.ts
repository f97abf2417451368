import { describe, expect, it } from 'vitest';
import { branchLoss, flagged, imbalanceTrend, lossTrend, nemaImbalance } from './electrical.ts';

// The worked example of docs/electric-diagram.md, number for number.
describe('the worked example', () => {
  it('branch loss: 812.4 kW in, 305.0 + 268.7 + 201.5 kW out → 37.2 kW, 4.58 %, under the 5 % threshold', () => {
    const loss = branchLoss([812.4], [305.0, 268.7, 201.5])!;
    expect(loss.inKw).toBeCloseTo(812.4, 9);
    expect(loss.outKw).toBeCloseTo(775.2, 9);
    expect(loss.lossKw).toBeCloseTo(37.2, 9);
    expect(loss.lossPct).toBeCloseTo(4.579, 3);
    expect(flagged(loss.lossPct, 5)).toBe(false);
    expect(flagged(loss.lossPct, 4)).toBe(true);
  });

  it('voltage imbalance 231.0 / 226.5 / 228.0 V: mean 228.5, largest deviation 2.5 → 1.09 %', () => {
    expect(nemaImbalance(231.0, 226.5, 228.0)).toBeCloseTo(1.0941, 4);
    expect(flagged(nemaImbalance(231.0, 226.5, 228.0), 2)).toBe(false);
  });

  it('current imbalance 412 / 380 / 398 A: mean 396.67, largest deviation 16.67 (phase B) → 4.20 %, flagged over 2 %', () => {
    expect(nemaImbalance(412, 380, 398)).toBeCloseTo(4.2017, 4);
    expect(flagged(nemaImbalance(412, 380, 398), 2)).toBe(true);
  });
});

describe('edge cases', () => {
  it('has no loss while a power is unknown, nothing flows in, or a side is missing', () => {
    expect(branchLoss([812.4], [305, null])).toBeNull();
    expect(branchLoss([], [305])).toBeNull();
    expect(branchLoss([100], [])).toBeNull();
    expect(branchLoss([0], [0])).toEqual({ inKw: 0, outKw: 0, lossKw: 0, lossPct: null });
    // Feeders reading more than the incoming (a meter error, or a source below the busbar) is a negative loss, shown as such.
    expect(branchLoss([100], [110])!.lossPct).toBeCloseTo(-10, 9);
  });

  it('has no imbalance for a missing phase or a dead line; balanced phases are 0 %', () => {
    expect(nemaImbalance(230, null, 230)).toBeNull();
    expect(nemaImbalance(0, 0, 0)).toBeNull();
    expect(nemaImbalance(230, 230, 230)).toBe(0);
  });

  it('computes trends bucket by bucket, null where a series has no bucket', () => {
    const incoming = [
      [
        { key: 1, value: 100 },
        { key: 2, value: 200 },
        { key: 3, value: 300 },
      ],
    ];
    const outgoing = [
      [
        { key: 1, value: 60 },
        { key: 2, value: 150 },
      ],
      [
        { key: 1, value: 30 },
        { key: 2, value: 40 },
        { key: 3, value: 50 },
      ],
    ];
    expect(lossTrend(incoming, outgoing)).toEqual([
      { key: 1, lossKw: 10, lossPct: 10 },
      { key: 2, lossKw: 10, lossPct: 5 },
      { key: 3, lossKw: null, lossPct: null },
    ]);
    const trend = imbalanceTrend([
      [{ key: 1, value: 412 }],
      [{ key: 1, value: 380 }],
      [{ key: 1, value: 398 }],
    ]);
    expect(trend[0]!.imbalancePct).toBeCloseTo(4.2017, 4);
  });
});
