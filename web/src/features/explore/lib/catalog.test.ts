import type { EffectiveAbility, RegionNode, Thing } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import {
  abilityThing,
  indexTree,
  pickableAbilities,
  pickedResource,
  pickerTree,
  resourceName,
  seriesThings,
} from './catalog.ts';

const thing = (thingId: number, name: string, parentId: number): RegionNode =>
  ({
    id: 1000 + thingId,
    thingId,
    name,
    parentId,
    resourceType: 'thing',
    children: [],
  }) as unknown as RegionNode;
const region = (id: number, name: string, children: RegionNode[]): RegionNode =>
  ({ id, name, parentId: null, resourceType: 'region', children }) as unknown as RegionNode;

// A plant with a compressor room inside a power station; compressor 3 is bound to both regions.
const TREE = [
  region(8, '动力站', [
    region(10, '空压站', [thing(3, '1#空压机', 10), thing(4, '2#空压机', 10)]),
    thing(3, '1#空压机', 8),
  ]),
];
const UNBOUND = [{ id: 9, name: '水表' } as Thing];

const ability = (identifier: string, extra: Partial<EffectiveAbility> = {}) =>
  ({
    identifier,
    name: identifier,
    unit: '',
    dataType: 'number',
    aggregator: 'avg',
    sort: 0,
    ...extra,
  }) as EffectiveAbility;

describe('explore catalog', () => {
  const index = indexTree(TREE, UNBOUND);

  it('names things and regions, and knows each region’s things once', () => {
    expect(index.things.get(3)).toBe('1#空压机');
    expect(index.things.get(9)).toBe('水表');
    expect(index.regions.get(8)).toEqual({ name: '动力站', thingIds: [3, 4] });
    expect(index.regions.get(10)?.thingIds).toEqual([3, 4]);
  });

  it('reads a region’s metrics from its first thing and marks the alarms of all its things', () => {
    expect(abilityThing({ resourceType: 'region', resourceId: 10, metric: 'P' }, index)).toBe(3);
    expect(abilityThing({ resourceType: 'thing', resourceId: 4, metric: 'P' }, index)).toBe(4);
    expect(abilityThing({ resourceType: 'region', resourceId: 99, metric: 'P' }, index)).toBeNull();
    expect(seriesThings({ resourceType: 'region', resourceId: 8, metric: 'P' }, index)).toEqual([3, 4]);
  });

  it('names an unknown resource by its id', () => {
    expect(resourceName({ resourceType: 'thing', resourceId: 77, metric: 'P' }, index)).toBe('#77');
    expect(resourceName({ resourceType: 'region', resourceId: 10, metric: 'P' }, index)).toBe('空压站');
  });

  it('builds a picker tree whose values stay unique when a thing sits in two regions', () => {
    const tree = pickerTree(TREE, UNBOUND, '未分配');
    const values: string[] = [];
    const walk = (nodes: typeof tree) => {
      for (const n of nodes) {
        values.push(n.value);
        walk(n.children ?? []);
      }
    };
    walk(tree);
    expect(values).toEqual(['r8', 'r10', 't3:10', 't4:10', 't3:8', 'unbound', 't9:0']);
    expect(new Set(values).size).toBe(values.length);
    expect(pickedResource('t3:8')).toEqual({ resourceType: 'thing', resourceId: 3 });
    expect(pickedResource('r10')).toEqual({ resourceType: 'region', resourceId: 10 });
    expect(pickedResource('unbound')).toBeNull();
  });

  it('offers number abilities that can be lines, each once, in ability order', () => {
    const offered = pickableAbilities([
      [ability('T', { sort: 2 }), ability('P', { sort: 1 }), ability('state', { dataType: 'enum' })],
      [ability('P'), ability('runHours', { name: '运行时长' }), ability('flow', { sort: 3 })],
    ]);
    expect(offered.map((a) => a.identifier)).toEqual(['P', 'T', 'flow']);
  });
});
