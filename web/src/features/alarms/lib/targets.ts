import type { RegionNode } from '@kilowatch/contract';

export interface Target {
  type: 'thing' | 'region';
  id: number;
  name: string;
}

export interface TargetNode {
  key: string;
  title: string;
  target: Target;
  children?: TargetNode[];
}

/** Tree keys: a region by id, a thing leaf by its node (a thing bound twice has two nodes). */
const regionKey = (id: number) => `region:${id}`;

/**
 * The region tree with its things as the tree dialog's nodes; each node carries the monitor target
 * it stands for (a region covers its descendants, so checks are strict: a region is one target).
 */
export function targetNodes(nodes: readonly RegionNode[]): TargetNode[] {
  return nodes.map((n) =>
    n.resourceType === 'thing' && n.thingId !== null
      ? { key: `thing:${n.id}`, title: n.name, target: { type: 'thing', id: n.thingId, name: n.name } }
      : {
          key: regionKey(n.id),
          title: n.name,
          target: { type: 'region', id: n.id, name: n.name },
          children: targetNodes(n.children),
        },
  );
}

/** The distinct targets of the checked keys. */
export function targetsOf(checked: readonly string[], byKey: ReadonlyMap<string, Target>): Target[] {
  const seen = new Set<string>();
  const out: Target[] = [];
  for (const key of checked) {
    const target = byKey.get(key);
    if (!target) continue;
    const id = `${target.type}:${target.id}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(target);
  }
  return out;
}

export function indexTargets(nodes: readonly TargetNode[], into = new Map<string, Target>()) {
  for (const n of nodes) {
    into.set(n.key, n.target);
    if (n.children) indexTargets(n.children, into);
  }
  return into;
}

/**
 * The nodes whose name holds `text` (case-insensitive), with their ancestors for the path; a
 * region that matches keeps its whole subtree, so it can be checked as it stands.
 */
export function filterTargetNodes(nodes: readonly TargetNode[], text: string): TargetNode[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return [...nodes];
  const out: TargetNode[] = [];
  for (const n of nodes) {
    if (n.title.toLowerCase().includes(needle)) {
      out.push(n);
      continue;
    }
    const children = n.children ? filterTargetNodes(n.children, needle) : [];
    if (children.length) out.push({ ...n, children });
  }
  return out;
}
