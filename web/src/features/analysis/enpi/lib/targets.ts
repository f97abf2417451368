import type { FilterGroup, RegionNode } from '@kilowatch/contract';

export interface TargetOption {
  value: string;
  title: string;
  selectable?: boolean;
  children?: TargetOption[];
}

/**
 * Regions and their things as picker options, `region:<id>` and `thing:<id>`; a thing bound in
 * several places is `thing:<id>:<node>` after its first (the picker needs unique values; the
 * part after the id is ignored when read). Filter groups follow under their own heading.
 */
export function targetOptions(
  nodes: readonly RegionNode[],
  groups: readonly FilterGroup[],
  groupsTitle: string,
): TargetOption[] {
  const seen = new Set<number>();
  const walk = (list: readonly RegionNode[]): TargetOption[] =>
    list.map((n) => {
      if (n.resourceType === 'thing' && n.thingId !== null) {
        const first = !seen.has(n.thingId);
        seen.add(n.thingId);
        return { value: first ? `thing:${n.thingId}` : `thing:${n.thingId}:${n.id}`, title: n.name };
      }
      return { value: `region:${n.id}`, title: n.name, children: walk(n.children) };
    });
  const out = walk(nodes);
  if (groups.length) {
    out.push({
      value: 'filterGroups',
      title: groupsTitle,
      selectable: false,
      children: groups.map((g) => ({ value: `filterGroup:${g.id}`, title: g.name })),
    });
  }
  return out;
}
