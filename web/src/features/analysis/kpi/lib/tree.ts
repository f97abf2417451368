import type { ReportNode } from '@kilowatch/contract';

/** Every node of the tree, depth first. */
export const flatten = (nodes: readonly ReportNode[]): ReportNode[] =>
  nodes.flatMap((n) => [n, ...flatten(n.children)]);

/** The first folder of the tree (spec §2: expanded by default), top level first. */
export const firstFolder = (nodes: readonly ReportNode[]): ReportNode | undefined =>
  flatten(nodes).find((n) => n.folder);

/** Ids of the folders above `id`, top first. */
export function ancestors(nodes: readonly ReportNode[], id: number): number[] {
  const byId = new Map(flatten(nodes).map((n) => [n.id, n]));
  const chain: number[] = [];
  for (let at = byId.get(id)?.parentId ?? null; at !== null; at = byId.get(at)?.parentId ?? null)
    chain.unshift(at);
  return chain;
}

/** Where a new node goes for the selection: into a selected folder, beside a selected report, else the top (0). */
export const parentForNew = (selected: ReportNode | null): number =>
  selected ? (selected.folder ? selected.id : (selected.parentId ?? 0)) : 0;

/** Ids of `node` and everything under it (a folder may not move into any of them). */
export const subtreeIds = (node: ReportNode): Set<number> => new Set(flatten([node]).map((n) => n.id));
