import type { Resource } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { buildResourceTree, filterResourceTree } from './resource-tree.ts';

const r = (id: number, path: string, parentPath: string | null, sort: number): Resource => ({
  id,
  path,
  name: path.split('/').at(-1)!,
  titleKey: `route.${id}`,
  parentPath,
  adminOnly: false,
  sort,
});

const flat = [
  r(3, '/sys_management/role', '/sys_management', 2),
  r(1, '/home', null, 0),
  r(2, '/sys_management', null, 1),
  r(4, '/sys_management/user', '/sys_management', 1),
];

describe('buildResourceTree', () => {
  it('nests by parentPath and orders by sort', () => {
    const tree = buildResourceTree(flat);
    expect(tree.map((n) => n.path)).toEqual(['/home', '/sys_management']);
    expect(tree[0]!.children).toBeUndefined();
    expect(tree[1]!.children!.map((n) => n.path)).toEqual(['/sys_management/user', '/sys_management/role']);
  });

  it('filters keeping ancestors', () => {
    const tree = filterResourceTree(buildResourceTree(flat), 'role', (n) => n.name);
    expect(tree).toHaveLength(1);
    expect(tree[0]!.children!.map((n) => n.path)).toEqual(['/sys_management/role']);
  });
});
