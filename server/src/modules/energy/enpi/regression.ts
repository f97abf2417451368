/**
 * Ordinary least squares of y on 1–3 variables with an intercept, by the normal equations
 * (XᵀX) β = Xᵀy solved with Gaussian elimination and partial pivoting: a 4 × 4 system at most,
 * so no statistics library. Columns are centred first, which keeps the system well conditioned
 * when a variable is large (thousands of pieces) beside the intercept.
 */

export interface Fit {
  intercept: number;
  coefficients: number[];
  n: number;
  /** Parameters, intercept included. */
  p: number;
  sse: number;
  r2: number;
  /** √(SSE / (n − p)) / ȳ (ASHRAE Guideline 14). */
  cvrmse: number;
}

export type FitFailure =
  | { kind: 'tooFewPoints'; n: number; needed: number }
  /** A variable is constant, or a combination of the others, over the points. */
  | { kind: 'singular' }
  /** Mean of y is zero or negative: CV(RMSE) means nothing. */
  | { kind: 'noEnergy' };

/** Solves A x = b in place (A square); null when A is singular. */
export function solve(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  const scale = Math.max(1, ...a.flat().map(Math.abs));
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) {
      if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    }
    if (Math.abs(a[pivot]![col]!) <= scale * 1e-12) return null;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    [b[col], b[pivot]] = [b[pivot]!, b[col]!];
    for (let r = col + 1; r < n; r++) {
      const f = a[r]![col]! / a[col]![col]!;
      for (let c = col; c < n; c++) a[r]![c]! -= f * a[col]![c]!;
      b[r]! -= f * b[col]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = b[r]!;
    for (let c = r + 1; c < n; c++) s -= a[r]![c]! * x[c]!;
    x[r] = s / a[r]![r]!;
  }
  return x;
}

/**
 * Fits y = β₀ + Σ βⱼ xⱼ. `rows[i]` holds the variables of point i; it needs at least
 * `p + extraPoints` points.
 */
export function fitOls(
  rows: readonly (readonly number[])[],
  y: readonly number[],
  extraPoints: number,
): Fit | FitFailure {
  const n = y.length;
  const k = rows[0]?.length ?? 0;
  const p = k + 1;
  if (n < p + extraPoints) return { kind: 'tooFewPoints', n, needed: p + extraPoints };
  const yMean = y.reduce((s, v) => s + v, 0) / n;
  if (!(yMean > 0)) return { kind: 'noEnergy' };
  const means = Array.from({ length: k }, (_, j) => rows.reduce((s, r) => s + r[j]!, 0) / n);
  // Centred normal equations for the slopes: (XcᵀXc) β = Xcᵀ(y − ȳ).
  const a = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const b = new Array<number>(k).fill(0);
  for (let i = 0; i < n; i++) {
    const row = rows[i]!;
    for (let j = 0; j < k; j++) {
      const xj = row[j]! - means[j]!;
      b[j]! += xj * (y[i]! - yMean);
      for (let l = 0; l < k; l++) a[j]![l]! += xj * (row[l]! - means[l]!);
    }
  }
  const beta = solve(a, b);
  if (!beta) return { kind: 'singular' };
  const intercept = yMean - beta.reduce((s, bj, j) => s + bj * means[j]!, 0);
  let sse = 0;
  let sst = 0;
  for (let i = 0; i < n; i++) {
    const fitted = intercept + beta.reduce((s, bj, j) => s + bj * rows[i]![j]!, 0);
    sse += (y[i]! - fitted) ** 2;
    sst += (y[i]! - yMean) ** 2;
  }
  return {
    intercept,
    coefficients: beta,
    n,
    p,
    sse,
    r2: sst > 0 ? 1 - sse / sst : 1,
    cvrmse: Math.sqrt(sse / (n - p)) / yMean,
  };
}

export const isFit = (f: Fit | FitFailure): f is Fit => !('kind' in f);

/** Energy the model expects for one point's variables. */
export const predict = (fit: Pick<Fit, 'intercept' | 'coefficients'>, row: readonly number[]): number =>
  fit.intercept + fit.coefficients.reduce((s, bj, j) => s + bj * row[j]!, 0);
