import type { DiagramGraph } from '@kilowatch/contract';
import {
  type BranchLoss,
  branchLoss,
  flagged,
  nemaImbalance,
  PHASES,
  type PhaseQuantity,
} from './electrical.ts';
import {
  busbarMembers,
  energise,
  isSource,
  isSwitch,
  type Latest,
  type SwitchState,
  stateOf,
} from './topology.ts';

/** What the diagram shows on each symbol now, from the latest values and active alarms. Pure. */

export interface NodeView {
  energised: boolean;
  /** Switches and sources with a status metric. */
  state: SwitchState | null;
  /** The bound thing has an active alarm. */
  alarm: boolean;
  /** Busbars: the branch loss, null while a member's power is unknown. */
  loss: (BranchLoss & { flagged: boolean }) | null;
  /** Bound meters with three phases: NEMA imbalance %, per quantity the thing has. */
  imbalance: Partial<Record<PhaseQuantity, { pct: number; flagged: boolean }>>;
}

export interface DiagramView {
  nodes: Map<string, NodeView>;
  edges: Set<string>;
}

const asNumber = (v: number | string | undefined): number | null => {
  if (v === undefined) return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : null;
};

export function diagramView(graph: DiagramGraph, latest: Latest, alarmed: ReadonlySet<number>): DiagramView {
  const live = energise(graph, latest);
  const nodes = new Map<string, NodeView>();
  for (const node of graph.nodes) {
    const binding = node.binding;
    const view: NodeView = {
      energised: live.nodes.has(node.id),
      state:
        (isSwitch(node.symbol) || isSource(node.symbol)) && binding?.status ? stateOf(node, latest) : null,
      alarm: binding !== undefined && alarmed.has(binding.thingId),
      loss: null,
      imbalance: {},
    };
    if (node.symbol === 'busbar') {
      const members = busbarMembers(graph, node.id);
      const power = (flow: 'in' | 'out') =>
        members
          .filter((m) => m.flow === flow)
          .map((m) => asNumber(latest(m.node.binding!.thingId, m.node.binding!.power!)));
      const loss = branchLoss(power('in'), power('out'));
      view.loss = loss && { ...loss, flagged: flagged(loss.lossPct, graph.thresholds.lossPct) };
    }
    if (binding) {
      for (const quantity of Object.keys(PHASES) as PhaseQuantity[]) {
        const [a, b, c] = PHASES[quantity].map((m) => asNumber(latest(binding.thingId, m)));
        const pct = nemaImbalance(a ?? null, b ?? null, c ?? null);
        if (pct !== null)
          view.imbalance[quantity] = { pct, flagged: flagged(pct, graph.thresholds.imbalancePct) };
      }
    }
    nodes.set(node.id, view);
  }
  return { nodes, edges: live.edges };
}
