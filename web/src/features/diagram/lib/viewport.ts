import type { DiagramGraph, DiagramNode, EffectiveAbility } from '@kilowatch/contract';
import { formatValue } from '../components/format.ts';
import type { Latest } from './topology.ts';
import { SYMBOL_SIZE } from './topology.ts';

/**
 * How much of a diagram is drawn at a scale, where a diagram opens, what "find" matches and how a
 * bound value is labelled. Pure: the canvas applies them (docs/electric-diagram.md, "Reading a
 * large diagram").
 */

/** Below this scale the 12 px value text is under ~7 px: values are hidden, names stay. */
const VALUES_FROM = 0.6;
/** Below this scale names are under ~5 px too: only the symbols, wires and their colours remain. */
const NAMES_FROM = 0.4;
/** Zoom steps of the + and − buttons, and the limits of every zoom. */
export const ZOOM_STEP = 1.25;
export const MIN_SCALE = 0.1;
export const MAX_SCALE = 3;
/** Room kept around the drawing when it is fitted. */
export const FIT_PADDING = 40;

export type Detail = 'full' | 'names' | 'outline';

/** What is drawn at a scale: everything, names without values, or the outline alone. */
export function detailAt(scale: number): Detail {
  if (scale >= VALUES_FROM) return 'full';
  if (scale >= NAMES_FROM) return 'names';
  return 'outline';
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const boxOf = (n: DiagramNode): Box => ({
  x: n.x,
  y: n.y,
  width: n.symbol === 'busbar' ? (n.width ?? SYMBOL_SIZE.busbar.width) : SYMBOL_SIZE[n.symbol].width,
  height: SYMBOL_SIZE[n.symbol].height,
});

/** The box around every symbol, or null for an empty diagram. */
export function contentBox(nodes: readonly DiagramNode[]): Box | null {
  if (nodes.length === 0) return null;
  const boxes = nodes.map(boxOf);
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x, y, width: right - x, height: bottom - y };
}

/** The scale at which the whole drawing fits the viewport, never above 100 %. */
export function fitScale(content: Box, viewport: { width: number; height: number }): number {
  const sx = (viewport.width - 2 * FIT_PADDING) / Math.max(content.width, 1);
  const sy = (viewport.height - 2 * FIT_PADDING) / Math.max(content.height, 1);
  return Math.max(MIN_SCALE, Math.min(1, sx, sy));
}

/**
 * Where a diagram opens. One that fits with its values readable opens fitted; a larger one opens
 * at 100 % on its first section, read top-down from where its supply comes in: the topmost symbol
 * (the leftmost of those) at the top middle of the viewport. The mini-map shows the rest.
 */
export type Opening = { kind: 'fit' } | { kind: 'focus'; scale: number; point: { x: number; y: number } };

export function openingView(
  graph: Pick<DiagramGraph, 'nodes'>,
  viewport: { width: number; height: number },
): Opening {
  const content = contentBox(graph.nodes);
  if (!content || detailAt(fitScale(content, viewport)) === 'full') return { kind: 'fit' };
  const top = [...graph.nodes].sort((a, b) => a.y - b.y || a.x - b.x)[0]!;
  const box = boxOf(top);
  return { kind: 'focus', scale: 1, point: { x: box.x + box.width / 2, y: box.y } };
}

/** Most matches "find" lists. */
const FIND_LIMIT = 50;

/** The symbols whose name contains the query, case-insensitively, in natural order (1#, 2#, … 10#); an empty query finds nothing. */
export function findNodes(nodes: readonly DiagramNode[], query: string): DiagramNode[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const collator = new Intl.Collator(undefined, { numeric: true });
  return nodes
    .filter((n) => n.label.toLowerCase().includes(q))
    .sort((a, b) => collator.compare(a.label, b.label))
    .slice(0, FIND_LIMIT);
}

/**
 * The live values beside a bound symbol, one line per shown metric: the ability's name as the
 * catalog gives it (the identifier only while the abilities are unknown), the value and its unit.
 */
export function valueLines(
  node: DiagramNode,
  abilities: readonly EffectiveAbility[],
  latest: Latest,
): string[] {
  const binding = node.binding;
  if (!binding) return [];
  return binding.shown.map((metric) => {
    const ability = abilities.find((a) => a.identifier === metric);
    const value = latest(binding.thingId, metric);
    // An enum ability (运转状态: 0 停机, 1 运行) reads as its option's name.
    const option =
      value === undefined ? undefined : ability?.enumOptions.find((o) => o.value === String(value));
    return `${ability?.name ?? metric} ${option ? option.label : formatValue(value, ability?.unit ?? '')}`;
  });
}
