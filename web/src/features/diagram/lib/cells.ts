import type {
  DiagramBinding,
  DiagramEdge,
  DiagramGraph,
  DiagramNode,
  DiagramSymbol,
  DiagramThresholds,
} from '@kilowatch/contract';
import { COLOURS, shapeOf, symbolOfShape } from './symbols.ts';
import { SYMBOL_SIZE } from './topology.ts';

/**
 * Between the saved graph (contract DiagramGraph: symbols, wires, bindings) and X6's cells. Only
 * the data travels: ports and anchors are derived from where the ends are drawn, so a saved
 * diagram holds nothing of the library's own format.
 */

/** What a node carries besides its place: the symbol's own data. */
export interface NodeData {
  symbol: DiagramSymbol;
  label: string;
  binding?: DiagramBinding | undefined;
}

/** The part of an X6 node this module reads (X6's Node satisfies it). */
export interface NodeLike {
  id: string;
  shape: string;
  getPosition(): { x: number; y: number };
  getSize(): { width: number; height: number };
  getData<T>(): T;
}
export interface EdgeLike {
  id: string;
  getSourceCellId(): string | null;
  getTargetCellId(): string | null;
}

const round = (v: number) => Math.round(v);

export function nodeCell(node: DiagramNode) {
  const size = SYMBOL_SIZE[node.symbol];
  const data: NodeData = { symbol: node.symbol, label: node.label, binding: node.binding };
  return {
    id: node.id,
    shape: shapeOf(node.symbol),
    x: node.x,
    y: node.y,
    width: node.symbol === 'busbar' ? (node.width ?? size.width) : size.width,
    height: size.height,
    data,
    attrs: { label: { text: node.label } },
  };
}

const centreY = (n: DiagramNode) => n.y + SYMBOL_SIZE[n.symbol].height / 2;

/** One end of a wire: a busbar takes it where it lands, other symbols on the port facing the other end. */
function end(node: DiagramNode, other: DiagramNode) {
  if (node.symbol === 'busbar') return { cell: node.id, anchor: { name: 'orth' } };
  return { cell: node.id, port: centreY(other) > centreY(node) ? 'b' : 't' };
}

export const EDGE_ATTRS = {
  line: { stroke: COLOURS.dead, strokeWidth: 2, targetMarker: null, sourceMarker: null },
};

function edgeCell(edge: DiagramEdge, nodes: ReadonlyMap<string, DiagramNode>) {
  const source = nodes.get(edge.source);
  const target = nodes.get(edge.target);
  if (!source || !target) return undefined;
  return {
    id: edge.id,
    shape: 'edge',
    source: end(source, target),
    target: end(target, source),
    attrs: EDGE_ATTRS,
    zIndex: -1,
  };
}

/** The X6 cells of a saved graph. */
export function toCells(graph: Pick<DiagramGraph, 'nodes' | 'edges'>) {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  return {
    nodes: graph.nodes.map(nodeCell),
    edges: graph.edges.flatMap((e) => edgeCell(e, byId) ?? []),
  };
}

/** The graph to save from what the editor holds; wires with a loose end are left out. */
export function fromCells(
  nodes: readonly NodeLike[],
  edges: readonly EdgeLike[],
  thresholds: DiagramThresholds,
): DiagramGraph {
  const saved: DiagramNode[] = nodes.map((n) => {
    const data = n.getData<NodeData>();
    const symbol = data?.symbol ?? symbolOfShape(n.shape);
    const { x, y } = n.getPosition();
    return {
      id: n.id,
      symbol,
      x: round(x),
      y: round(y),
      ...(symbol === 'busbar' ? { width: round(n.getSize().width) } : {}),
      label: data?.label ?? '',
      ...(data?.binding ? { binding: data.binding } : {}),
    };
  });
  const ids = new Set(saved.map((n) => n.id));
  const wires: DiagramEdge[] = edges.flatMap((e) => {
    const source = e.getSourceCellId();
    const target = e.getTargetCellId();
    if (!source || !target || source === target || !ids.has(source) || !ids.has(target)) return [];
    return [{ id: e.id, source, target }];
  });
  return { nodes: saved, edges: wires, thresholds };
}

let counter = 0;
/** A fresh cell id (the contract allows letters, digits, - and _). */
export const newCellId = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;
