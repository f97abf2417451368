import type { Kind } from './kinds.ts';

/** Things that draw electric power from the plant's transformers: cabinet meters and compressors. */
export const isElectricLoad = (kind: Kind): boolean => kind === 'meter' || kind === 'compressor';

/** What the supply topology needs of a thing. */
export interface SupplyThing {
  identifier: string;
  kind: Kind;
  /** kW for a load, kVA for a transformer. */
  rated: number;
}

/** Peak demand per rated kW: cabinets run near their rating at full production, compressors cycle. */
const DEMAND_FACTOR: Partial<Record<Kind, number>> = { meter: 0.93, compressor: 0.75 };

const byIdentifier = (a: SupplyThing, b: SupplyThing) =>
  a.identifier < b.identifier ? -1 : a.identifier > b.identifier ? 1 : 0;

/**
 * Which loads each transformer supplies, by transformer identifier: every electric load of the
 * plant hangs off exactly one 0.4 kV busbar section. Loads in identifier order (so the cabinets of
 * one workshop and the compressor house stay together, as they do on a real switchboard) are cut
 * into contiguous runs whose peak demand is in proportion to each transformer's kVA. The same
 * cut serves the generator (a transformer's input is what its loads draw plus its losses) and the
 * demo's single-line diagram (each busbar draws the feeders it supplies), so the two agree.
 */
export function supplyTopology<T extends SupplyThing>(things: readonly T[]): Map<string, T[]> {
  const transformers = things.filter((t) => t.kind === 'transformer').sort(byIdentifier);
  const loads = things.filter((t) => isElectricLoad(t.kind)).sort(byIdentifier);
  const supply = new Map<string, T[]>(transformers.map((t) => [t.identifier, []]));
  if (transformers.length === 0) return supply;
  const capacity = transformers.reduce((sum, t) => sum + t.rated, 0);
  const demand = (t: SupplyThing) => t.rated * (DEMAND_FACTOR[t.kind] ?? 1);
  const total = loads.reduce((sum, t) => sum + demand(t), 0);
  // Upper edge of each transformer's share of the total demand.
  let edge = 0;
  const edges = transformers.map((t) => {
    edge += t.rated / capacity;
    return edge * total;
  });
  let before = 0;
  for (const load of loads) {
    const middle = before + demand(load) / 2;
    before += demand(load);
    const i = edges.findIndex((e) => middle <= e);
    supply.get(transformers[i === -1 ? transformers.length - 1 : i]!.identifier)!.push(load);
  }
  return supply;
}
