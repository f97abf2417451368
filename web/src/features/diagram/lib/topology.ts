import type { DiagramEdge, DiagramFlow, DiagramGraph, DiagramNode, DiagramSymbol } from '@kilowatch/contract';

/**
 * What the diagram means electrically, pure: switch states from their bound metrics, which
 * symbols and wires are energised, and which bound symbols feed or leave each busbar.
 */

/** Drawn size of each symbol (a busbar's width is its own). */
export const SYMBOL_SIZE: Record<DiagramSymbol, { width: number; height: number }> = {
  incoming: { width: 40, height: 60 },
  transformer: { width: 40, height: 64 },
  breaker: { width: 30, height: 40 },
  disconnector: { width: 30, height: 40 },
  busbar: { width: 400, height: 8 },
  feeder: { width: 40, height: 60 },
  meter: { width: 36, height: 36 },
  capacitor: { width: 40, height: 48 },
  generator: { width: 44, height: 44 },
};

export const isSwitch = (symbol: DiagramSymbol) => symbol === 'breaker' || symbol === 'disconnector';
export const isSource = (symbol: DiagramSymbol) => symbol === 'incoming' || symbol === 'generator';

/** The latest value of a thing's metric, or undefined when none has arrived. */
export type Latest = (thingId: number, metric: string) => number | string | undefined;

/** The value meaning closed (in service) when a binding names none. */
const DEFAULT_CLOSED_VALUE = '1';

/** closed / open from the bound status metric; unknown while it has no value; closed when not bound. */
export type SwitchState = 'closed' | 'open' | 'unknown';

export function stateOf(node: DiagramNode, latest: Latest): SwitchState {
  const binding = node.binding;
  if (!binding?.status) return 'closed';
  const value = latest(binding.thingId, binding.status);
  if (value === undefined) return 'unknown';
  const closed = binding.closedValue ?? DEFAULT_CLOSED_VALUE;
  // Booleans arrive as true/false or 1/0 depending on the device: compare as text, both spellings.
  const text = String(value);
  if (text === closed) return 'closed';
  if ((closed === 'true' && text === '1') || (closed === '1' && text === 'true')) return 'closed';
  return 'open';
}

export interface Energised {
  /** Symbols with voltage on them (an open switch is, on its source side). */
  nodes: Set<string>;
  /** Wires carrying voltage. */
  edges: Set<string>;
}

const neighbours = (edges: readonly DiagramEdge[]) => {
  const map = new Map<string, { edge: string; node: string }[]>();
  const add = (from: string, edge: string, node: string) =>
    map.set(from, [...(map.get(from) ?? []), { edge, node }]);
  for (const e of edges) {
    add(e.source, e.id, e.target);
    add(e.target, e.id, e.source);
  }
  return map;
};

/**
 * A section is energised when a live source reaches it through closed switches: a breadth-first
 * walk from every source in service (a source with a status metric follows it, one without is
 * taken as live), wires in both directions. A switch that is open, or whose state is unknown,
 * is reached but passes nothing on: the console never paints as live what it cannot vouch for.
 */
export function energise(graph: Pick<DiagramGraph, 'nodes' | 'edges'>, latest: Latest): Energised {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const next = neighbours(graph.edges);
  const nodes = new Set<string>();
  const edges = new Set<string>();
  const passes = (node: DiagramNode) => stateOf(node, latest) === 'closed';
  const queue = graph.nodes.filter((n) => isSource(n.symbol) && passes(n)).map((n) => n.id);
  for (const id of queue) nodes.add(id);
  while (queue.length > 0) {
    const id = queue.shift()!;
    const node = byId.get(id);
    if (!node || (isSwitch(node.symbol) && !passes(node))) continue;
    for (const { edge, node: other } of next.get(id) ?? []) {
      edges.add(edge);
      if (nodes.has(other)) continue;
      nodes.add(other);
      queue.push(other);
    }
  }
  return { nodes, edges };
}

export interface Member {
  node: DiagramNode;
  flow: DiagramFlow;
}

const centreY = (n: DiagramNode) => n.y + SYMBOL_SIZE[n.symbol].height / 2;

/**
 * The bound symbols whose power counts for a busbar's loss: from the busbar along the wires, the
 * first symbol on each path that has a power metric (the walk stops there and at other busbars).
 * A member's side is its binding's `flow`, else where it is drawn: above the busbar it feeds in,
 * below it the power leaves (the single-line convention of sources on top).
 */
export function busbarMembers(graph: Pick<DiagramGraph, 'nodes' | 'edges'>, busbarId: string): Member[] {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const bus = byId.get(busbarId);
  if (!bus) return [];
  const next = neighbours(graph.edges);
  const seen = new Set([busbarId]);
  const queue = [busbarId];
  const members: Member[] = [];
  while (queue.length > 0) {
    for (const { node: id } of next.get(queue.shift()!) ?? []) {
      if (seen.has(id)) continue;
      seen.add(id);
      const node = byId.get(id);
      if (!node || node.symbol === 'busbar') continue;
      if (node.binding?.power) {
        members.push({ node, flow: node.binding.flow ?? (centreY(node) < centreY(bus) ? 'in' : 'out') });
        continue;
      }
      queue.push(id);
    }
  }
  return members;
}
