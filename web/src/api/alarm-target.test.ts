import type { RegionNode } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { thingsUnder } from './alarms.ts';

const node = (over: Partial<RegionNode>): RegionNode => ({
  id: 0,
  parentId: null,
  name: '',
  description: '',
  thingId: null,
  resourceType: 'region',
  dimensions: [],
  level: 0,
  sort: 0,
  isClick: true,
  children: [],
  ...over,
});
const thing = (thingId: number) => node({ id: 1000 + thingId, thingId, resourceType: 'thing' });

describe('a region on a chart stands for its devices', () => {
  const tree = [
    node({
      id: 1,
      children: [
        thing(1),
        node({ id: 2, children: [thing(2), thing(3), node({ id: 4, children: [thing(3), thing(5)] })] }),
      ],
    }),
    node({ id: 9, children: [thing(9)] }),
  ];

  it('every device under it, subregions included, each once', () => {
    expect(thingsUnder(tree, 2).sort()).toEqual([2, 3, 5]);
    expect(thingsUnder(tree, 1).sort()).toEqual([1, 2, 3, 5]);
    expect(thingsUnder(tree, 9)).toEqual([9]);
  });

  it('none for a region not in the tree, nor for a device id taken for a region', () => {
    expect(thingsUnder(tree, 77)).toEqual([]);
    expect(thingsUnder(tree, 1003)).toEqual([]);
  });
});
