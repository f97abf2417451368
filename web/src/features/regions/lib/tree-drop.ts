import { REGION_MAX_DEPTH, type RegionNode, type RegionOrder } from '@kilowatch/contract';

/** Where a dragged node lands relative to the node it was dropped on. */
export type DropPlacement = 'inside' | 'before' | 'after';

export type DropResult =
  | { ok: true; parentId: number | null; order: RegionOrder }
  | { ok: false; reason: 'notFound' | 'self' | 'descendant' | 'depth' | 'unchanged' };

interface Located {
  node: RegionNode;
  parentId: number | null;
  siblings: RegionNode[];
  /** 1 for roots. */
  depth: number;
}

function locate(
  nodes: RegionNode[],
  id: number,
  parentId: number | null = null,
  depth = 1,
): Located | undefined {
  for (const node of nodes) {
    if (node.id === id) return { node, parentId, siblings: nodes, depth };
    const found = locate(node.children, id, node.id, depth + 1);
    if (found) return found;
  }
  return undefined;
}

const contains = (node: RegionNode, id: number): boolean =>
  node.children.some((c) => c.id === id || contains(c, id));

/** Levels in a subtree, the node itself counting 1. */
const height = (node: RegionNode): number => 1 + Math.max(0, ...node.children.map(height));

/**
 * The PATCH /api/regions/order payload for dropping region `dragId` on region `targetId`
 * (`inside` makes it the first child; `before`/`after` a sibling). Siblings keep their order and
 * are renumbered 0..n-1; only entries whose parent or sort changes are sent, plus the moved node.
 * Refuses dropping a node on itself or into its own descendants, and trees deeper than the server
 * allows.
 *
 * @example computeRegionOrder(tree, 5, 2, 'inside') // { ok: true, parentId: 2, order: [{ id: 5, parentId: 2, sort: 0 }, …] }
 */
export function computeRegionOrder(
  tree: RegionNode[],
  dragId: number,
  targetId: number,
  placement: DropPlacement,
): DropResult {
  const drag = locate(tree, dragId);
  const target = locate(tree, targetId);
  if (!drag || !target) return { ok: false, reason: 'notFound' };
  if (dragId === targetId) return { ok: false, reason: 'self' };
  if (contains(drag.node, targetId)) return { ok: false, reason: 'descendant' };

  const parentId = placement === 'inside' ? target.node.id : target.parentId;
  const parentDepth = placement === 'inside' ? target.depth : target.depth - 1;
  if (parentDepth + height(drag.node) > REGION_MAX_DEPTH) return { ok: false, reason: 'depth' };

  const siblings = (placement === 'inside' ? target.node.children : target.siblings).filter(
    (n) => n.id !== dragId,
  );
  const at =
    placement === 'inside'
      ? 0
      : siblings.findIndex((n) => n.id === targetId) + (placement === 'after' ? 1 : 0);
  siblings.splice(at, 0, drag.node);

  const order: RegionOrder = siblings.flatMap((n, sort) =>
    n.id === dragId || n.sort !== sort || n.parentId !== parentId ? [{ id: n.id, parentId, sort }] : [],
  );
  const moved = order.find((o) => o.id === dragId)!;
  if (order.length === 1 && drag.parentId === parentId && drag.node.sort === moved.sort) {
    return { ok: false, reason: 'unchanged' };
  }
  return { ok: true, parentId, order };
}

/**
 * antd Tree's `onDrop` numbers: `dropPosition` counts from the target's index among its siblings
 * (its `pos` ends with that index), `dropToGap` is false when dropped onto the node itself.
 */
export function placementFromAntd(info: {
  dropToGap: boolean;
  dropPosition: number;
  pos: string;
}): DropPlacement {
  if (!info.dropToGap) return 'inside';
  const index = Number(info.pos.split('-').at(-1));
  return info.dropPosition - index < 0 ? 'before' : 'after';
}
