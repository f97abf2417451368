import { describe, expect, it } from 'vitest';
import { canAccess } from '../lib/session.ts';
import { type ConsoleRoute, findRoute, menuFor, routeTrail } from './routes.ts';

const allPaths = (routes: ConsoleRoute[]): string[] =>
  routes.flatMap((r) => [r.path, ...(r.children ? allPaths(r.children) : [])]);

const menuOf = (roles: string[]) => allPaths(menuFor((routeRoles) => canAccess(roles, routeRoles)));

const ADMIN_ONLY = ['/device_management', '/sys_management', '/sys_config'];

describe('menuFor', () => {
  it("an editor's menu has no device_management, sys_management or sys_config", () => {
    const paths = menuOf(['editor']);
    for (const p of ADMIN_ONLY) expect(paths.some((x) => x === p || x.startsWith(`${p}/`))).toBe(false);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/home',
        '/dashboard',
        '/energy_monitor',
        '/energy_monitor/realtime',
        '/alarm_center',
      ]),
    );
  });

  it("an admin's menu has them, children included", () => {
    const paths = menuOf(['admin']);
    expect(paths).toEqual(
      expect.arrayContaining([
        ...ADMIN_ONLY,
        '/device_management/category',
        '/device_management/model',
        '/device_management/nodes',
        '/device_management/video',
        '/sys_management/user',
        '/sys_management/group',
        '/sys_management/role',
        '/sys_management/route',
      ]),
    );
  });

  it('the admin extra set is exactly the editor menu plus the admin-only routes', () => {
    const admin = menuOf(['admin']);
    const editor = menuOf(['editor']);
    expect(
      admin.filter((p) => !editor.includes(p)).every((p) => ADMIN_ONLY.some((a) => p.startsWith(a))),
    ).toBe(true);
    expect(editor.every((p) => admin.includes(p))).toBe(true);
  });

  it('hidden /home/chartdetail never appears', () => {
    expect(findRoute('/home/chartdetail')?.hidden).toBe(true);
    for (const roles of [['admin'], ['editor'], []]) expect(menuOf(roles)).not.toContain('/home/chartdetail');
  });

  it('drops a parent whose children are all filtered out', () => {
    const parent: ConsoleRoute = {
      path: '/p',
      name: 'p',
      titleKey: 'x',
      children: [{ path: '/p/a', name: 'a', titleKey: 'x', roles: ['admin'] }],
    };
    expect(menuFor((r) => canAccess(['editor'], r), [parent])).toEqual([]);
    expect(allPaths(menuFor((r) => canAccess(['admin'], r), [parent]))).toEqual(['/p', '/p/a']);
  });
});

describe('routes', () => {
  it('admin-only routes declare the admin role, the others none', () => {
    expect(findRoute('/sys_management/user')?.roles).toEqual(['admin']);
    expect(findRoute('/sys_config')?.roles).toEqual(['admin']);
    expect(findRoute('/home')?.roles).toBeUndefined();
  });

  it('routeTrail gives parent then child', () => {
    expect(routeTrail('/energy_monitor/realtime').map((r) => r.path)).toEqual([
      '/energy_monitor',
      '/energy_monitor/realtime',
    ]);
    expect(routeTrail('/sys_management/user').map((r) => r.name)).toEqual(['sys_management', 'user']);
    expect(routeTrail('/home').map((r) => r.path)).toEqual(['/home']);
    expect(routeTrail('/nowhere')).toEqual([]);
  });
});
