import { describe, expect, it } from 'vitest';
import { type Fit, fitOls, isFit, predict, solve } from './regression.ts';
import { EXAMPLE } from './testing.ts';

const rowsOf = (output: readonly number[], hdd: readonly number[]) =>
  output.map((o, i) => [o, hdd[i] as number]);

describe('least squares baseline', () => {
  it('reproduces the worked example of docs/enpi.md number by number', () => {
    const { baseline, reporting, model } = EXAMPLE;
    const fit = fitOls(rowsOf(baseline.output, baseline.hdd), baseline.energy, 2) as Fit;
    expect(isFit(fit)).toBe(true);
    expect(fit.n).toBe(12);
    expect(fit.p).toBe(3);
    expect(fit.intercept).toBeCloseTo(model.intercept, 3);
    expect(fit.coefficients[0]).toBeCloseTo(model.coefficients[0], 7);
    expect(fit.coefficients[1]).toBeCloseTo(model.coefficients[1], 6);
    expect(fit.r2).toBeCloseTo(model.r2, 6);
    expect(fit.cvrmse).toBeCloseTo(model.cvrmse, 6);
    const rows = rowsOf(reporting.output, reporting.hdd);
    let cusum = 0;
    rows.forEach((row, i) => {
      const expected = predict(fit, row);
      const savings = expected - (reporting.energy[i] as number);
      cusum += savings;
      expect(expected).toBeCloseTo(EXAMPLE.expected[i] as number, 2);
      expect(savings).toBeCloseTo(EXAMPLE.savings[i] as number, 2);
      expect(cusum).toBeCloseTo(EXAMPLE.cusum[i] as number, 2);
    });
  });

  it('fits one variable exactly on a line', () => {
    const fit = fitOls([[1], [2], [3], [4]], [12, 14, 16, 18], 2) as Fit;
    expect(fit.intercept).toBeCloseTo(10, 10);
    expect(fit.coefficients[0]).toBeCloseTo(2, 10);
    expect(fit.r2).toBe(1);
    expect(fit.cvrmse).toBeCloseTo(0, 10);
  });

  it('says when there are too few points, a constant variable, or no energy', () => {
    expect(
      fitOls(
        [
          [1, 2],
          [2, 3],
          [3, 5],
          [4, 4],
        ],
        [1, 2, 3, 4],
        2,
      ),
    ).toEqual({ kind: 'tooFewPoints', n: 4, needed: 5 });
    expect(
      fitOls(
        [
          [1, 0],
          [2, 0],
          [3, 0],
          [4, 0],
          [5, 0],
        ],
        [1, 2, 3, 4, 6],
        2,
      ),
    ).toEqual({ kind: 'singular' });
    expect(fitOls([[1], [2], [3], [4]], [0, 0, 0, 0], 2)).toEqual({ kind: 'noEnergy' });
  });

  it('solves a small system with pivoting', () => {
    expect(
      solve(
        [
          [0, 1],
          [1, 0],
        ],
        [2, 3],
      ),
    ).toEqual([3, 2]);
    expect(
      solve(
        [
          [1, 2],
          [2, 4],
        ],
        [1, 2],
      ),
    ).toBeNull();
  });
});
