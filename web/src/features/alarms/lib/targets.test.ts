import type { RegionNode } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { filterTargetNodes, indexTargets, targetNodes, targetsOf } from './targets.ts';

const node = (
  id: number,
  name: string,
  over: Partial<RegionNode> = {},
  children: RegionNode[] = [],
): RegionNode => ({
  id,
  parentId: null,
  name,
  description: '',
  thingId: null,
  resourceType: 'region',
  dimensions: [],
  level: 1,
  sort: 0,
  isClick: true,
  children,
  ...over,
});

describe('monitor targets from the region tree', () => {
  const tree = [
    node(1, '一号厂区', {}, [
      node(100, '1号空压机', { resourceType: 'thing', thingId: 7 }),
      node(2, '装配车间', {}, [node(101, '1号空压机', { resourceType: 'thing', thingId: 7 })]),
    ]),
  ];
  const nodes = targetNodes(tree);
  const byKey = indexTargets(nodes);

  it('a region node is a region target, a thing leaf a thing target', () => {
    expect(byKey.get('region:1')).toEqual({ type: 'region', id: 1, name: '一号厂区' });
    expect(byKey.get('thing:100')).toEqual({ type: 'thing', id: 7, name: '1号空压机' });
  });

  it('a thing bound in two regions is one target', () => {
    expect(targetsOf(['thing:100', 'thing:101', 'region:2'], byKey)).toEqual([
      { type: 'thing', id: 7, name: '1号空压机' },
      { type: 'region', id: 2, name: '装配车间' },
    ]);
  });
});

describe('filterTargetNodes', () => {
  const nodes = targetNodes([
    node(1, '一号厂区', {}, [
      node(2, '装配车间', {}, [node(101, '1号空压机', { resourceType: 'thing', thingId: 7 })]),
      node(3, 'Pump room', {}, [node(102, '冷却泵', { resourceType: 'thing', thingId: 8 })]),
    ]),
  ]);
  const titles = (list: ReturnType<typeof filterTargetNodes>): unknown[] =>
    list.map((n) => (n.children ? [n.title, titles(n.children)] : n.title));

  it('keeps a matching device with its ancestors only', () => {
    expect(titles(filterTargetNodes(nodes, '空压'))).toEqual([['一号厂区', [['装配车间', ['1号空压机']]]]]);
  });

  it('keeps a matching region whole, ignores case and blanks, and finds nothing for a stranger', () => {
    expect(titles(filterTargetNodes(nodes, ' pump '))).toEqual([['一号厂区', [['Pump room', ['冷却泵']]]]]);
    expect(filterTargetNodes(nodes, '')).toEqual(nodes);
    expect(filterTargetNodes(nodes, '锅炉')).toEqual([]);
  });
});
