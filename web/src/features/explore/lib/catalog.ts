import type { EffectiveAbility, ExploreSeries, RegionNode, Thing } from '@kilowatch/contract';
import { lineSources } from '../../../components/charts/metrics.ts';

/**
 * What the Explore screen knows of things and regions, read from the region tree with things as
 * leaves and the things bound to no region: names, and the things under each region (a region's
 * series combines them; its alarms are theirs).
 */
export interface ExploreIndex {
  things: ReadonlyMap<number, string>;
  regions: ReadonlyMap<number, { name: string; thingIds: readonly number[] }>;
}

const thingIdOf = (n: RegionNode) => n.thingId ?? n.id;

export function indexTree(nodes: readonly RegionNode[], unbound: readonly Thing[]): ExploreIndex {
  const things = new Map<number, string>();
  const regions = new Map<number, { name: string; thingIds: number[] }>();
  const visit = (list: readonly RegionNode[]): number[] =>
    list.flatMap((n) => {
      if (n.resourceType === 'thing') {
        things.set(thingIdOf(n), n.name);
        return [thingIdOf(n)];
      }
      const under = [...new Set(visit(n.children ?? []))];
      regions.set(n.id, { name: n.name, thingIds: under });
      return under;
    });
  visit(nodes);
  for (const t of unbound) things.set(t.id, t.name);
  return { things, regions };
}

/**
 * The thing whose abilities stand for a series' metric: the thing itself, or a region's first
 * thing (as the monitoring screens read a region's metrics).
 */
export const abilityThing = (s: ExploreSeries, index: ExploreIndex): number | null =>
  s.resourceType === 'thing' ? s.resourceId : (index.regions.get(s.resourceId)?.thingIds[0] ?? null);

/** The things a series stands for (its alarms are marked). */
export const seriesThings = (s: ExploreSeries, index: ExploreIndex): readonly number[] =>
  s.resourceType === 'thing' ? [s.resourceId] : (index.regions.get(s.resourceId)?.thingIds ?? []);

/** The series' resource name; `#id` while unknown (deleted since the view was saved, or loading). */
export const resourceName = (s: ExploreSeries, index: ExploreIndex): string =>
  (s.resourceType === 'thing' ? index.things.get(s.resourceId) : index.regions.get(s.resourceId)?.name) ??
  `#${s.resourceId}`;

/** Abilities a picker offers: numbers that can be lines, each identifier once, in ability order. */
export function pickableAbilities(lists: readonly (readonly EffectiveAbility[])[]): EffectiveAbility[] {
  const seen = new Set<string>();
  return lists
    .flatMap((list) => lineSources(list))
    .filter((a) => {
      if (seen.has(a.identifier)) return false;
      seen.add(a.identifier);
      return true;
    });
}

/** A picker's tree: regions (selectable, their things combined) with their things as leaves. */
export interface PickerNode {
  /** `r<id>` or `t<id>:<parent region>` (a thing bound to two regions shows twice). */
  value: string;
  title: string;
  children?: PickerNode[];
}

export function pickerTree(
  nodes: readonly RegionNode[],
  unbound: readonly Thing[],
  unboundTitle: string,
): PickerNode[] {
  const convert = (list: readonly RegionNode[]): PickerNode[] =>
    list.map((n) =>
      n.resourceType === 'thing'
        ? { value: `t${thingIdOf(n)}:${n.parentId ?? 0}`, title: n.name }
        : { value: `r${n.id}`, title: n.name, children: convert(n.children ?? []) },
    );
  const tree = convert(nodes);
  if (unbound.length)
    tree.push({
      value: 'unbound',
      title: unboundTitle,
      children: unbound.map((t) => ({ value: `t${t.id}:0`, title: t.name })),
    });
  return tree;
}

/** A picker value back to the resource it names; null for the unassigned group. */
export function pickedResource(value: string): Pick<ExploreSeries, 'resourceType' | 'resourceId'> | null {
  const m = /^([tr])(\d+)/.exec(value);
  if (!m) return null;
  return { resourceType: m[1] === 't' ? 'thing' : 'region', resourceId: Number(m[2]) };
}
