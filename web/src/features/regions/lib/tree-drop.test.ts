import type { RegionNode } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { computeRegionOrder, placementFromAntd } from './tree-drop.ts';

type Spec = [id: number, children?: Spec[]];

/** Builds a tree with sorts 0..n-1 per level from `[id, [children]]` pairs. */
const build = (specs: Spec[], parentId: number | null = null, dims: number[] = []): RegionNode[] =>
  specs.map(([id, children = []], sort) => ({
    id,
    parentId,
    name: `R${id}`,
    description: '',
    thingId: null,
    resourceType: 'region',
    dimensions: dims,
    level: dims.length + 1,
    sort,
    isClick: true,
    children: build(children, id, [...dims, id]),
  }));

// 1 ─ 2 ─ 4
//   │   └ 5
//   └ 3
// 6
// 7
const tree = build([[1, [[2, [[4], [5]]], [3]]], [6], [7]]);

describe('computeRegionOrder', () => {
  it('moving into a node makes it the first child and renumbers the children after it', () => {
    expect(computeRegionOrder(tree, 6, 2, 'inside')).toEqual({
      ok: true,
      parentId: 2,
      order: [
        { id: 6, parentId: 2, sort: 0 },
        { id: 4, parentId: 2, sort: 1 },
        { id: 5, parentId: 2, sort: 2 },
      ],
    });
  });

  it('moving into a leaf', () => {
    expect(computeRegionOrder(tree, 7, 3, 'inside')).toEqual({
      ok: true,
      parentId: 3,
      order: [{ id: 7, parentId: 3, sort: 0 }],
    });
  });

  it('before a sibling at the same level', () => {
    expect(computeRegionOrder(tree, 7, 1, 'before')).toEqual({
      ok: true,
      parentId: null,
      order: [
        { id: 7, parentId: null, sort: 0 },
        { id: 1, parentId: null, sort: 1 },
        { id: 6, parentId: null, sort: 2 },
      ],
    });
  });

  it('after a sibling at the same level sends only what changed', () => {
    expect(computeRegionOrder(tree, 4, 5, 'after')).toEqual({
      ok: true,
      parentId: 2,
      order: [
        { id: 5, parentId: 2, sort: 0 },
        { id: 4, parentId: 2, sort: 1 },
      ],
    });
  });

  it('after a node at another level moves it there', () => {
    expect(computeRegionOrder(tree, 5, 1, 'after')).toEqual({
      ok: true,
      parentId: null,
      order: [
        { id: 5, parentId: null, sort: 1 },
        { id: 6, parentId: null, sort: 2 },
        { id: 7, parentId: null, sort: 3 },
      ],
    });
    expect(computeRegionOrder(tree, 3, 4, 'before')).toEqual({
      ok: true,
      parentId: 2,
      order: [
        { id: 3, parentId: 2, sort: 0 },
        { id: 4, parentId: 2, sort: 1 },
        { id: 5, parentId: 2, sort: 2 },
      ],
    });
  });

  it('refuses a drop into its own descendant, at any depth, and onto itself', () => {
    expect(computeRegionOrder(tree, 1, 2, 'inside')).toEqual({ ok: false, reason: 'descendant' });
    expect(computeRegionOrder(tree, 1, 4, 'after')).toEqual({ ok: false, reason: 'descendant' });
    expect(computeRegionOrder(tree, 2, 5, 'before')).toEqual({ ok: false, reason: 'descendant' });
    expect(computeRegionOrder(tree, 2, 2, 'inside')).toEqual({ ok: false, reason: 'self' });
  });

  it('a drop that changes nothing sends nothing', () => {
    expect(computeRegionOrder(tree, 6, 1, 'after')).toEqual({ ok: false, reason: 'unchanged' });
    expect(computeRegionOrder(tree, 4, 5, 'before')).toEqual({ ok: false, reason: 'unchanged' });
  });

  it('unknown ids and too-deep trees are refused', () => {
    expect(computeRegionOrder(tree, 99, 1, 'inside')).toEqual({ ok: false, reason: 'notFound' });
    let deep: Spec = [100];
    for (let id = 101; id < 112; id++) deep = [id, [deep]];
    const tall = build([deep, [200, [[201]]]]);
    // The chain is 12 levels deep: nothing more fits under its deepest node.
    expect(computeRegionOrder(tall, 201, 100, 'inside')).toEqual({ ok: false, reason: 'depth' });
    expect(computeRegionOrder(tall, 201, 101, 'inside').ok).toBe(true);
  });
});

describe('placementFromAntd', () => {
  it('reads antd onDrop numbers', () => {
    expect(placementFromAntd({ dropToGap: false, dropPosition: 2, pos: '0-2' })).toBe('inside');
    expect(placementFromAntd({ dropToGap: true, dropPosition: -1, pos: '0-0' })).toBe('before');
    expect(placementFromAntd({ dropToGap: true, dropPosition: 3, pos: '0-1-2' })).toBe('after');
  });
});
