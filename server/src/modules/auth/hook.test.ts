import { describe, expect, it } from 'vitest';
import { authorize } from './hook.ts';

describe('authorize', () => {
  const admin = { id: 1, username: 'admin', roles: ['admin'], userLevel: 1, grants: [] };
  const editor = { id: 2, username: 'ed', roles: ['editor'], userLevel: 2, grants: [] };
  const granted = { ...editor, grants: ['/device_management/nodes'] };

  it('lets anyone signed in through a route that requires no role or resource', () => {
    expect(authorize(editor, {})).toBe(true);
    expect(authorize(editor, { roles: [] })).toBe(true);
  });

  it('requires one of the listed roles, and admin passes every check', () => {
    expect(authorize(editor, { roles: ['admin'] })).toBe(false);
    expect(authorize(editor, { roles: ['operator', 'editor'] })).toBe(true);
    expect(authorize(admin, { roles: ['operator'] })).toBe(true);
  });

  it('requires a grant of the route a call serves, unless admin', () => {
    expect(authorize(editor, { resource: '/device_management/nodes' })).toBe(false);
    expect(authorize(granted, { resource: '/device_management/nodes' })).toBe(true);
    expect(authorize(granted, { resource: '/sys_management/user' })).toBe(false);
    expect(authorize(admin, { resource: '/sys_management/user' })).toBe(true);
  });
});
