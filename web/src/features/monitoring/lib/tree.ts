import type { RegionNode, ResourceType, Thing } from '@kilowatch/contract';

/** The resource a monitoring screen shows, kept in the address (`?resourceType=&resourceId=`). */
export interface Selection {
  resourceType: ResourceType;
  resourceId: number;
}

/**
 * Pure helpers over the region tree with things as leaves (GET /api/regions?withThings=true).
 * A thing bound to two regions appears twice, so a node's key includes its parent.
 */

export const nodeKey = (node: RegionNode): string =>
  node.resourceType === 'thing'
    ? `thing:${node.parentId ?? 0}:${node.thingId ?? node.id}`
    : `region:${node.id}`;

export const nodeSelection = (node: RegionNode): Selection =>
  node.resourceType === 'thing'
    ? { resourceType: 'thing', resourceId: node.thingId ?? node.id }
    : { resourceType: 'region', resourceId: node.id };

export const matchesSelection = (node: RegionNode, s: Selection) =>
  node.resourceType === s.resourceType && nodeSelection(node).resourceId === s.resourceId;

/** Depth-first walk. */
export function* walk(nodes: readonly RegionNode[]): Generator<RegionNode> {
  for (const n of nodes) {
    yield n;
    yield* walk(n.children ?? []);
  }
}

export const findNode = (nodes: readonly RegionNode[], s: Selection): RegionNode | null => {
  for (const n of walk(nodes)) if (matchesSelection(n, s)) return n;
  return null;
};

/** The first thing leaf under a node (its abilities stand for a region's metrics). */
export const firstThing = (node: RegionNode | null): RegionNode | null => {
  if (!node) return null;
  for (const n of walk([node])) if (n.resourceType === 'thing') return n;
  return null;
};

/** The things a selected resource stands for: the thing itself, or every thing under the region. */
export const selectedThingIds = (
  selection: { resourceType: string; resourceId: number } | null,
  node: RegionNode | null,
): number[] =>
  !selection ? [] : selection.resourceType === 'thing' ? [selection.resourceId] : thingIds(node);

/** Distinct thing ids under a node. */
const thingIds = (node: RegionNode | null): number[] =>
  node
    ? [...new Set([...walk([node])].filter((n) => n.resourceType === 'thing').map((n) => n.thingId ?? n.id))]
    : [];

/**
 * The tree cut down to nodes whose name contains `search` (case-insensitive) and their
 * ancestors, with the keys to expand so every match shows. An empty search keeps everything.
 */
export function filterTree(
  nodes: readonly RegionNode[],
  search: string,
): { nodes: RegionNode[]; expandedKeys: string[] } {
  const needle = search.trim().toLowerCase();
  if (!needle) return { nodes: [...nodes], expandedKeys: [] };
  const expandedKeys: string[] = [];
  const visit = (list: readonly RegionNode[]): RegionNode[] =>
    list.flatMap((n) => {
      const children = visit(n.children ?? []);
      const hit = n.name.toLowerCase().includes(needle);
      if (!hit && !children.length) return [];
      if (children.length) expandedKeys.push(nodeKey(n));
      // A matching region keeps its whole subtree; otherwise only the branches that match.
      return [{ ...n, children: hit ? (n.children ?? []) : children }];
    });
  return { nodes: visit(nodes), expandedKeys };
}

/** Regions with the things bound directly to them, for grids grouped by region (fire). */
export function regionsWithThings(
  nodes: readonly RegionNode[],
): { region: RegionNode; things: RegionNode[] }[] {
  return [...walk(nodes)]
    .filter((n) => n.resourceType === 'region')
    .map((region) => ({ region, things: (region.children ?? []).filter((c) => c.resourceType === 'thing') }))
    .filter((g) => g.things.length > 0);
}

/** Id of the "unassigned" group: region ids start at 1, so 0 names no region. */
const UNASSIGNED_GROUP_ID = 0;

export const isUnassignedGroup = (node: RegionNode) =>
  node.resourceType === 'region' && node.id === UNASSIGNED_GROUP_ID;

/**
 * The region tree followed, when some things are bound to no region, by a group `label` holding
 * them as leaves: the group itself cannot be selected (it is no region to aggregate over), its
 * devices can, so every device is reachable in the monitoring screens.
 */
export function withUnassigned(
  roots: readonly RegionNode[],
  things: readonly Thing[],
  label: string,
): RegionNode[] {
  if (!things.length) return [...roots];
  const group: RegionNode = {
    id: UNASSIGNED_GROUP_ID,
    parentId: null,
    name: label,
    description: '',
    thingId: null,
    resourceType: 'region',
    dimensions: [],
    level: 1,
    sort: roots.length,
    isClick: false,
    children: things.map((t, index) => ({
      id: t.id,
      parentId: UNASSIGNED_GROUP_ID,
      name: t.name,
      description: t.description,
      thingId: t.id,
      resourceType: 'thing',
      dimensions: [UNASSIGNED_GROUP_ID],
      level: 2,
      sort: index,
      isClick: true,
      children: [],
    })),
  };
  return [...roots, group];
}

/** What the view opens on when the address names nothing: the first region, else the first device. */
export function defaultSelection(roots: readonly RegionNode[]): Selection | null {
  const region = roots.find((n) => n.resourceType === 'region' && n.isClick !== false);
  if (region) return nodeSelection(region);
  for (const n of walk(roots)) if (n.resourceType === 'thing') return nodeSelection(n);
  return null;
}
