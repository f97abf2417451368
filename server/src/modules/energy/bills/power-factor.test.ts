import { describe, expect, it } from 'vitest';
import { adjustmentPercent, monthlyPowerFactor, round2 } from './power-factor.ts';

describe('the 1983 power-factor adjustment tables', () => {
  it('reads the 0.90 table: reductions above, 0.5 / 1 / 2 % steps below', () => {
    const rows: [number, number][] = [
      [1, -0.75],
      [0.95, -0.75],
      [0.94, -0.6],
      [0.91, -0.15],
      [0.9, 0],
      [0.89, 0.5],
      [0.85, 2.5],
      [0.8, 5],
      [0.7, 10],
      [0.69, 11],
      [0.65, 15],
      [0.64, 17],
      [0.6, 25],
    ];
    for (const [cos, percent] of rows) expect(adjustmentPercent(cos, 0.9), String(cos)).toBe(percent);
  });

  it('reads the 0.85 and 0.80 tables', () => {
    expect(adjustmentPercent(0.9, 0.85)).toBe(-0.5);
    expect(adjustmentPercent(0.93, 0.85)).toBe(-0.95);
    expect(adjustmentPercent(0.99, 0.85)).toBe(-1.1);
    expect(adjustmentPercent(0.65, 0.85)).toBe(10);
    expect(adjustmentPercent(0.6, 0.85)).toBe(15);
    expect(adjustmentPercent(0.59, 0.85)).toBe(17);
    expect(adjustmentPercent(0.9, 0.8)).toBe(-1);
    expect(adjustmentPercent(0.91, 0.8)).toBe(-1.15);
    expect(adjustmentPercent(0.97, 0.8)).toBe(-1.3);
    expect(adjustmentPercent(0.6, 0.8)).toBe(10);
    expect(adjustmentPercent(0.55, 0.8)).toBe(15);
  });

  it('reads cos φ from kWh and kvarh to two decimals, half up', () => {
    expect(monthlyPowerFactor(100, 0)).toBe(1);
    expect(monthlyPowerFactor(0, 0)).toBeNull();
    // 3-4-5: 0.6 exactly; 0.845 rounds up to 0.85.
    expect(monthlyPowerFactor(3, 4)).toBe(0.6);
    expect(monthlyPowerFactor(0.845, Math.sqrt(1 - 0.845 ** 2))).toBe(0.85);
    expect(round2(1345.9375)).toBe(1345.94);
    expect(round2(-0.125)).toBe(-0.13);
  });
});
