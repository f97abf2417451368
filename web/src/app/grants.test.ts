import type { Me } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { type ConsoleRoute, menuFor } from '../config/routes.ts';
import { canAccessRoute, isGranted, useSession } from '../lib/session.ts';
import { decide, type GuardInput } from './guard.ts';

const editor = { roles: ['editor'], grants: ['/device_management/nodes'] };

const input = (path: string, over: Partial<GuardInput> = {}): GuardInput => ({
  path,
  fullPath: path,
  hasToken: true,
  rolesLoaded: true,
  roles: editor.roles,
  grants: editor.grants,
  ...over,
});

const titles = (routes: ConsoleRoute[]): unknown[] =>
  routes.map((r) => (r.children ? [r.titleKey, titles(r.children)] : r.titleKey));

describe('route grants (routes of /api/auth/me)', () => {
  it('an editor granted /device_management/nodes sees 设备管理 › 设备节点 only', () => {
    const menu = menuFor((_, route) => canAccessRoute(editor.roles, editor.grants, route));
    const devices = menu.find((r) => r.path === '/device_management');
    expect(devices?.children?.map((c) => c.path)).toEqual(['/device_management/nodes']);
    expect(titles(menu)).toContainEqual(['route.deviceManagement', ['route.nodes']]);
    expect(menu.some((r) => r.path === '/sys_management' || r.path === '/sys_config')).toBe(false);
  });

  it('decide() allows the granted path (and its parent) but not /sys_management/user', () => {
    expect(decide(input('/device_management/nodes'))).toEqual({ kind: 'allow' });
    expect(decide(input('/device_management'))).toEqual({ kind: 'allow' });
    expect(decide(input('/device_management/category'))).toEqual({
      kind: 'redirect',
      to: '/401?noGoBack=true',
    });
    expect(decide(input('/sys_management/user'))).toEqual({ kind: 'redirect', to: '/401?noGoBack=true' });
  });

  it('without grants (the field left out) the old rules apply', () => {
    expect(decide(input('/device_management/nodes', { grants: undefined }))).toEqual({
      kind: 'redirect',
      to: '/401?noGoBack=true',
    });
    expect(decide(input('/home', { grants: undefined }))).toEqual({ kind: 'allow' });
    expect(decide(input('/sys_management/user', { roles: ['admin'], grants: undefined }))).toEqual({
      kind: 'allow',
    });
  });

  it('a granted parent covers its children', () => {
    expect(isGranted(['/sys_management'], '/sys_management/role')).toBe(true);
    expect(isGranted(['/sys'], '/sys_management/role')).toBe(false);
    expect(decide(input('/sys_management/role', { grants: ['/sys_management'] }))).toEqual({ kind: 'allow' });
  });

  it('the session keeps the routes of /api/auth/me, and reads them as optional', () => {
    // An older server leaves `routes` out; the session reads it as optional.
    const me = {
      id: 2,
      username: 'ed',
      name: 'Ed',
      avatar: '',
      introduction: '',
      roles: ['editor'],
      userLevel: 2,
      setting: {},
    } as Omit<Me, 'routes'> as Me;
    useSession.getState().setUser({ ...me, routes: ['/device_management/nodes'] } as Me);
    expect(useSession.getState().routes).toEqual(['/device_management/nodes']);
    useSession.getState().setUser(me);
    expect(useSession.getState().routes).toEqual([]);
    useSession.getState().setUser({ ...me, routes: ['/region'] } as Me);
    useSession.getState().clear();
    expect(useSession.getState().routes).toEqual([]);
  });
});
