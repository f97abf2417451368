/**
 * The national power-factor adjustment of the electricity bill: 《功率因数调整电费办法》, issued
 * by the Ministry of Water Resources and Electric Power and the National Price Bureau in 1983
 * ((83)水电财字第215号), still the basis of Chinese utilities' 力调电费. Its three tables, for the
 * standard values 0.90, 0.85 and 0.80, give the percent of the month's basic (demand or capacity)
 * plus energy charge that is reduced or added for each actual power factor, read to two decimals
 * (rounded half up):
 *
 * - reductions above the standard: the listed percent, capped at the table's top row;
 * - additions below it: 0.5 % per 0.01 for the first 0.20 below the standard, then 1 % per 0.01
 *   for the next 0.05, then 2 % per 0.01 further down (0.90 table: 0.70 → 10 %, 0.65 → 15 %,
 *   0.64 → 17 %).
 */

interface AdjustmentTable {
  target: number;
  /** Reduction (%) for an actual factor of target + 0.01, + 0.02, …; the last applies up to 1.00. */
  reductions: readonly number[];
}

/** The tables' reduction columns, as printed. */
const PF_TABLES: Readonly<Record<'0.9' | '0.85' | '0.8', AdjustmentTable>> = {
  // 0.91 0.15, 0.92 0.30, 0.93 0.45, 0.94 0.60, 0.95–1.00 0.75
  '0.9': { target: 0.9, reductions: [0.15, 0.3, 0.45, 0.6, 0.75] },
  // 0.86 0.1 … 0.90 0.5, 0.91 0.65, 0.92 0.80, 0.93 0.95, 0.94–1.00 1.10
  '0.85': { target: 0.85, reductions: [0.1, 0.2, 0.3, 0.4, 0.5, 0.65, 0.8, 0.95, 1.1] },
  // 0.81 0.1 … 0.90 1.0, 0.91 1.15, 0.92–1.00 1.30
  '0.8': { target: 0.8, reductions: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.15, 1.3] },
};

/** cos φ of a month from its active (kWh) and reactive (kvarh) energy, read to two decimals. */
export function monthlyPowerFactor(activeKwh: number, reactiveKvarh: number): number | null {
  const apparent = Math.hypot(activeKwh, reactiveKvarh);
  if (!(apparent > 0)) return null;
  // Half up on hundredths, computed on integers so 0.845 does not become 0.84 by binary rounding.
  return Math.round(Math.round((activeKwh / apparent) * 1e6) / 1e4) / 100;
}

/**
 * The adjustment percent for an actual power factor (two decimals) against a standard value:
 * negative reduces the bill, positive adds to it.
 */
export function adjustmentPercent(cosPhi: number, target: 0.9 | 0.85 | 0.8): number {
  const table = PF_TABLES[String(target) as keyof typeof PF_TABLES];
  // Steps of 0.01 from the standard, on integers.
  const steps = Math.round(cosPhi * 100) - Math.round(target * 100);
  if (steps >= 0) {
    if (steps === 0) return 0;
    const i = Math.min(steps, table.reductions.length) - 1;
    return -(table.reductions[i] as number);
  }
  const below = -steps;
  if (below <= 20) return round2(below * 0.5);
  if (below <= 25) return round2(10 + (below - 20));
  return round2(15 + (below - 25) * 2);
}

/** Money and percents to two decimals, half away from zero (the bill's 分). */
export const round2 = (x: number): number => {
  const r = Math.round(Math.abs(x) * 100 + 1e-7) / 100;
  return x < 0 ? -r : r;
};
