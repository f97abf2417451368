/**
 * The diagram's electrical arithmetic, pure (docs/electric-diagram.md has the worked example the
 * tests check): the branch loss of a busbar and the three-phase imbalance of a meter.
 */

export interface BranchLoss {
  /** Σ of the power flowing into the busbar, kW. */
  inKw: number;
  /** Σ of the power leaving it through its feeders, kW. */
  outKw: number;
  /** inKw − outKw, kW: what the busbar section and its unmetered loads take. */
  lossKw: number;
  /** lossKw as a share of inKw, %; null when nothing flows in. */
  lossPct: number | null;
}

/**
 * Branch loss: incoming minus the sum of outgoing feeders. Undefined (null) while any of the
 * powers is unknown: a missing feeder would show as loss.
 */
export function branchLoss(
  incoming: readonly (number | null)[],
  outgoing: readonly (number | null)[],
): BranchLoss | null {
  if (incoming.length === 0 || outgoing.length === 0) return null;
  if ([...incoming, ...outgoing].some((v) => v === null || !Number.isFinite(v))) return null;
  const inKw = (incoming as number[]).reduce((a, b) => a + b, 0);
  const outKw = (outgoing as number[]).reduce((a, b) => a + b, 0);
  const lossKw = inKw - outKw;
  return { inKw, outKw, lossKw, lossPct: inKw > 0 ? (lossKw / inKw) * 100 : null };
}

/**
 * Three-phase imbalance by the NEMA MG 1 definition on magnitudes: the largest deviation of a phase
 * from the mean of the three, over that mean, in %. Null when a phase is unknown or the mean is
 * not positive (a dead line has no imbalance).
 */
export function nemaImbalance(a: number | null, b: number | null, c: number | null): number | null {
  if (a === null || b === null || c === null) return null;
  if (![a, b, c].every(Number.isFinite)) return null;
  const mean = (a + b + c) / 3;
  if (mean <= 0) return null;
  return (Math.max(Math.abs(a - mean), Math.abs(b - mean), Math.abs(c - mean)) / mean) * 100;
}

/** The phase metrics a meter must have for its imbalance (the demo meters' identifiers). */
export const PHASES = {
  voltage: ['Ua', 'Ub', 'Uc'],
  current: ['Ia', 'Ib', 'Ic'],
} as const;
export type PhaseQuantity = keyof typeof PHASES;

/** Over its threshold: a value strictly above it flags. */
export const flagged = (value: number | null | undefined, thresholdPct: number): boolean =>
  value !== null && value !== undefined && value > thresholdPct;

export interface Point {
  key: number;
  value: number | null;
}

/**
 * Buckets of several series side by side: for each bucket key present in every series, the values
 * in series order (null where a series has none). Used to compute a trend bucket by bucket.
 */
function alignBuckets(series: readonly (readonly Point[])[]): { key: number; values: (number | null)[] }[] {
  const keys = new Set<number>();
  for (const s of series) for (const p of s) keys.add(p.key);
  const maps = series.map((s) => new Map(s.map((p) => [p.key, p.value])));
  return [...keys].sort((a, b) => a - b).map((key) => ({ key, values: maps.map((m) => m.get(key) ?? null) }));
}

/** The loss % of each bucket from its incoming and outgoing power series. */
export function lossTrend(
  incoming: readonly (readonly Point[])[],
  outgoing: readonly (readonly Point[])[],
): { key: number; lossKw: number | null; lossPct: number | null }[] {
  return alignBuckets([...incoming, ...outgoing]).map(({ key, values }) => {
    const loss = branchLoss(values.slice(0, incoming.length), values.slice(incoming.length));
    return { key, lossKw: loss?.lossKw ?? null, lossPct: loss?.lossPct ?? null };
  });
}

/** The imbalance % of each bucket from the three phase series. */
export function imbalanceTrend(phases: readonly [readonly Point[], readonly Point[], readonly Point[]]) {
  return alignBuckets(phases).map(({ key, values: [a, b, c] }) => ({
    key,
    imbalancePct: nemaImbalance(a ?? null, b ?? null, c ?? null),
  }));
}
