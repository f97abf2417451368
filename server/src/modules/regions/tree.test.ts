import { REGION_MAX_DEPTH } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { applyOrder, buildTree, type RegionRecord, subtreeIds } from './tree.ts';

const r = (id: number, parentId: number | null, sort = 0): RegionRecord => ({
  id,
  parentId,
  name: `R${id}`,
  description: '',
  sort,
});

describe('buildTree', () => {
  it('nests by parent, orders siblings by sort then id, and fills dimensions and level', () => {
    const tree = buildTree([r(1, null, 1), r(2, null, 0), r(3, 1, 0), r(4, 3, 5), r(5, 3, 5)]);
    expect(tree.map((n) => n.id)).toEqual([2, 1]);
    const leaf = tree[1]?.children[0]?.children[1];
    expect(leaf).toMatchObject({ id: 5, parentId: 3, dimensions: [1, 3], level: 3, resourceType: 'region' });
    expect(tree[1]?.children[0]?.children.map((n) => n.id)).toEqual([4, 5]);
  });

  it('adds thing leaves after sub-regions, by name', () => {
    const [root] = buildTree(
      [r(1, null), r(2, 1)],
      [
        { regionId: 1, thingId: 9, name: 'b', description: '' },
        { regionId: 1, thingId: 8, name: 'a', description: 'x' },
      ],
    );
    expect(root?.children.map((n) => [n.resourceType, n.id])).toEqual([
      ['region', 2],
      ['thing', 8],
      ['thing', 9],
    ]);
    expect(root?.children[1]).toMatchObject({
      thingId: 8,
      dimensions: [1],
      level: 2,
      isClick: true,
      children: [],
    });
  });

  it('orders numbered devices as counted: 1#, 2#, … 10#', () => {
    const names = ['10#空压机', '2#空压机', '1#空压机', '11#空压机'];
    const [root] = buildTree(
      [r(1, null)],
      names.map((name, i) => ({ regionId: 1, thingId: 20 + i, name, description: '' })),
    );
    expect(root?.children.map((n) => n.name)).toEqual(['1#空压机', '2#空压机', '10#空压机', '11#空压机']);
  });
});

describe('applyOrder', () => {
  const regions = [r(1, null), r(2, 1), r(3, 2), r(4, null)];

  it('moves and reorders', () => {
    const result = applyOrder(regions, [
      { id: 3, parentId: 4, sort: 1 },
      { id: 2, parentId: null, sort: 0 },
    ]);
    expect('regions' in result && result.regions.find((x) => x.id === 3)).toMatchObject({
      parentId: 4,
      sort: 1,
    });
  });

  it('refuses a node under itself or its descendant', () => {
    expect(applyOrder(regions, [{ id: 1, parentId: 1, sort: 0 }])).toEqual({
      problem: { kind: 'cycle', id: 1 },
    });
    expect(applyOrder(regions, [{ id: 1, parentId: 3, sort: 0 }])).toEqual({
      problem: { kind: 'cycle', id: 1 },
    });
  });

  it('refuses unknown ids and too deep trees', () => {
    expect(applyOrder(regions, [{ id: 99, parentId: null, sort: 0 }])).toEqual({
      problem: { kind: 'unknown', id: 99 },
    });
    expect(applyOrder(regions, [{ id: 1, parentId: 99, sort: 0 }])).toEqual({
      problem: { kind: 'unknown', id: 99 },
    });
    const chain = Array.from({ length: REGION_MAX_DEPTH }, (_, i) => r(i + 1, i === 0 ? null : i));
    const extra = [...chain, r(100, null)];
    expect('regions' in applyOrder(extra, [{ id: 100, parentId: REGION_MAX_DEPTH - 1, sort: 0 }])).toBe(true);
    expect(applyOrder(extra, [{ id: 100, parentId: REGION_MAX_DEPTH, sort: 0 }])).toMatchObject({
      problem: { kind: 'tooDeep' },
    });
  });
});

describe('subtreeIds', () => {
  it('lists a node and everything below it', () => {
    expect(subtreeIds([r(1, null), r(2, 1), r(3, 2), r(4, null)], 2).sort()).toEqual([2, 3]);
  });
});
