import { naturalCompare, REGION_MAX_DEPTH, type RegionNode, type RegionOrder } from '@kilowatch/contract';

/** A region as the tree logic sees it. */
export interface RegionRecord {
  id: number;
  parentId: number | null;
  name: string;
  description: string;
  sort: number;
}

/** A thing shown as a leaf under a region. */
export interface ThingLeaf {
  regionId: number;
  thingId: number;
  name: string;
  description: string;
}

const bySortThenId = (a: RegionRecord, b: RegionRecord) => a.sort - b.sort || a.id - b.id;

/**
 * The region forest: roots first, siblings by `sort` then id, each node with the ids of its
 * ancestors (`dimensions`, root → parent) and its `level` (root 1). Thing leaves, when given,
 * follow a region's sub-regions, ordered by name as counted (1#, 2#, … 10#). A region whose parent is missing is a root.
 */
export function buildTree(regions: RegionRecord[], leaves: ThingLeaf[] = []): RegionNode[] {
  const ids = new Set(regions.map((r) => r.id));
  const childrenOf = new Map<number | null, RegionRecord[]>();
  for (const region of [...regions].sort(bySortThenId)) {
    const parent = region.parentId !== null && ids.has(region.parentId) ? region.parentId : null;
    const list = childrenOf.get(parent) ?? [];
    list.push(region);
    childrenOf.set(parent, list);
  }
  const leavesOf = new Map<number, ThingLeaf[]>();
  for (const leaf of [...leaves].sort((a, b) => naturalCompare(a.name, b.name) || a.thingId - b.thingId)) {
    const list = leavesOf.get(leaf.regionId) ?? [];
    list.push(leaf);
    leavesOf.set(leaf.regionId, list);
  }

  const build = (region: RegionRecord, dimensions: number[]): RegionNode => {
    const below = [...dimensions, region.id];
    const level = dimensions.length + 1;
    return {
      id: region.id,
      parentId: region.parentId,
      name: region.name,
      description: region.description,
      thingId: null,
      resourceType: 'region',
      dimensions,
      level,
      sort: region.sort,
      isClick: true,
      children: [
        ...(childrenOf.get(region.id) ?? []).map((child) => build(child, below)),
        ...(leavesOf.get(region.id) ?? []).map(
          (leaf, index): RegionNode => ({
            id: leaf.thingId,
            parentId: region.id,
            name: leaf.name,
            description: leaf.description,
            thingId: leaf.thingId,
            resourceType: 'thing',
            dimensions: below,
            level: level + 1,
            sort: index,
            isClick: true,
            children: [],
          }),
        ),
      ],
    };
  };
  return (childrenOf.get(null) ?? []).map((root) => build(root, []));
}

/** `id` and every region below it. */
export function subtreeIds(regions: RegionRecord[], id: number): number[] {
  const childrenOf = new Map<number, number[]>();
  for (const r of regions) {
    if (r.parentId === null) continue;
    const list = childrenOf.get(r.parentId) ?? [];
    list.push(r.id);
    childrenOf.set(r.parentId, list);
  }
  const result: number[] = [];
  const stack = [id];
  const seen = new Set<number>();
  while (stack.length) {
    const next = stack.pop() as number;
    if (seen.has(next)) continue;
    seen.add(next);
    result.push(next);
    stack.push(...(childrenOf.get(next) ?? []));
  }
  return result;
}

/** Level of a region (root 1), or undefined when its ancestry loops. */
export function levelOf(byId: Map<number, { parentId: number | null }>, id: number): number | undefined {
  let level = 0;
  const seen = new Set<number>();
  let current: number | null = id;
  while (current !== null) {
    if (seen.has(current)) return undefined;
    seen.add(current);
    level++;
    current = byId.get(current)?.parentId ?? null;
  }
  return level;
}

export type OrderProblem =
  | { kind: 'unknown'; id: number }
  | { kind: 'cycle'; id: number }
  | { kind: 'tooDeep'; id: number };

/**
 * The regions after applying `order` (new parent and sort of each listed node), or the first
 * problem: a listed id or parent that does not exist, a node placed under itself or one of its
 * descendants, or a tree deeper than REGION_MAX_DEPTH.
 */
export function applyOrder(
  regions: RegionRecord[],
  order: RegionOrder,
): { regions: RegionRecord[] } | { problem: OrderProblem } {
  const byId = new Map(regions.map((r) => [r.id, { ...r }]));
  for (const move of order) {
    const region = byId.get(move.id);
    if (!region) return { problem: { kind: 'unknown', id: move.id } };
    if (move.parentId !== null && !byId.has(move.parentId)) {
      return { problem: { kind: 'unknown', id: move.parentId } };
    }
    region.parentId = move.parentId;
    region.sort = move.sort;
  }
  for (const move of order) {
    const level = levelOf(byId, move.id);
    if (level === undefined) return { problem: { kind: 'cycle', id: move.id } };
  }
  // Only moved nodes can have closed a loop, so every level is now finite; memoised walk up.
  const levels = new Map<number, number>();
  const level = (id: number): number => {
    const known = levels.get(id);
    if (known !== undefined) return known;
    const parent = byId.get(id)?.parentId ?? null;
    const value = parent === null ? 1 : level(parent) + 1;
    levels.set(id, value);
    return value;
  };
  for (const region of byId.values()) {
    if (level(region.id) > REGION_MAX_DEPTH) return { problem: { kind: 'tooDeep', id: region.id } };
  }
  const next = [...byId.values()];
  return { regions: next };
}
