import type { DiagramGraph } from '@kilowatch/contract';
import { AppError } from '../../errors.ts';

/** What validation needs of the catalog: a thing's abilities by identifier (empty when unknown). */
export type AbilitiesOf = (thingId: number) => Promise<ReadonlyMap<string, unknown>>;

const unprocessable = (
  message:
    | 'diagrams.duplicateId'
    | 'diagrams.unknownEnd'
    | 'diagrams.selfLoop'
    | 'diagrams.unknownThing'
    | 'diagrams.unknownMetric',
  params: Record<string, string | number>,
) => new AppError('UNPROCESSABLE', 422, params, { message });

/**
 * Checks what the schema cannot: cell ids are unique, wires join existing symbols, and bindings
 * name existing things and metrics they have. Symbol kinds and size limits are the contract's.
 */
export async function validateGraph(graph: DiagramGraph, abilitiesOf: AbilitiesOf): Promise<void> {
  const ids = new Set<string>();
  for (const cell of [...graph.nodes, ...graph.edges]) {
    if (ids.has(cell.id)) throw unprocessable('diagrams.duplicateId', { id: cell.id });
    ids.add(cell.id);
  }
  const nodes = new Set(graph.nodes.map((n) => n.id));
  for (const edge of graph.edges) {
    for (const end of [edge.source, edge.target]) {
      if (!nodes.has(end)) throw unprocessable('diagrams.unknownEnd', { id: edge.id, end });
    }
    if (edge.source === edge.target) throw unprocessable('diagrams.selfLoop', { id: edge.id });
  }
  for (const node of graph.nodes) {
    const binding = node.binding;
    if (!binding) continue;
    const label = node.label || node.id;
    const abilities = await abilitiesOf(binding.thingId);
    if (abilities.size === 0)
      throw unprocessable('diagrams.unknownThing', { label, thingId: binding.thingId });
    const named = [...binding.shown, binding.power, binding.status].filter((m) => m !== undefined);
    for (const metric of named) {
      if (!abilities.has(metric)) throw unprocessable('diagrams.unknownMetric', { label, metric });
    }
  }
}
