import type { Resource } from '@kilowatch/contract';

export interface ResourceNode extends Resource {
  children?: ResourceNode[];
}

/**
 * Nests the flat resource list by `parentPath`, each level ordered by `sort`; a resource whose
 * parent is missing becomes a root. Leaves carry no `children` (so tables show no expander).
 */
export function buildResourceTree(resources: readonly Resource[]): ResourceNode[] {
  const byPath = new Map<string, ResourceNode>(resources.map((r) => [r.path, { ...r }]));
  const roots: ResourceNode[] = [];
  for (const node of byPath.values()) {
    const parent = node.parentPath ? byPath.get(node.parentPath) : undefined;
    if (!parent) roots.push(node);
    else if (parent.children) parent.children.push(node);
    else parent.children = [node];
  }
  const order = (nodes: ResourceNode[]) => {
    nodes.sort((a, b) => a.sort - b.sort || a.path.localeCompare(b.path));
    for (const n of nodes) if (n.children) order(n.children);
    return nodes;
  };
  return order(roots);
}

/** Nodes whose path, name or translated title contains `text` (case-insensitive), with their ancestors. */
export function filterResourceTree(
  nodes: readonly ResourceNode[],
  text: string,
  title: (node: ResourceNode) => string,
): ResourceNode[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return [...nodes];
  return nodes.flatMap((n): ResourceNode[] => {
    const hit = [n.path, n.name, title(n)].some((s) => s.toLowerCase().includes(needle));
    if (hit) return [n];
    const children = n.children ? filterResourceTree(n.children, text, title) : [];
    return children.length ? [{ ...n, children }] : [];
  });
}
