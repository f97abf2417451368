import { LAYOUT_ROUTES, leafRoutes } from '@kilowatch/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../../test/helpers.ts';
import { type Client, client, editorWith, roleGranting } from '../testing.ts';

describe.each(dialects())('groups, roles and resources API on %s', (dialect) => {
  let t: TestApp;
  let admin: Client;
  beforeEach(async () => {
    t = await buildTestApp(dialect);
    admin = client(() => t.app, (await login(t.app)).token);
  });
  afterEach(async () => {
    await t.close();
  });

  it('lists every console route as a resource, parents and leaves, in menu order', async () => {
    const res = await admin.get('/api/resources');
    expect(res.status).toBe(200);
    const paths = res.body.data.map((r: { path: string }) => r.path);
    const all = LAYOUT_ROUTES.flatMap((r) => [r.path, ...(r.children ?? []).map((c) => c.path)]);
    expect(paths).toEqual(all);
    expect(paths).toEqual(expect.arrayContaining(leafRoutes().map((r) => r.path)));
    expect(res.body.data.find((r: { path: string }) => r.path === '/sys_management/user')).toMatchObject({
      name: 'user',
      titleKey: 'route.user',
      parentPath: '/sys_management',
      adminOnly: true,
    });
    // A restart upserts the same rows rather than adding new ones.
    await t.restart();
    admin = client(() => t.app, (await login(t.app)).token);
    expect((await admin.get('/api/resources')).body.data).toEqual(res.body.data);
  });

  it('creates, lists, changes and deletes groups; names are unique (409)', async () => {
    const ops = await admin.post('/api/groups', { name: 'Ops', description: 'operators' });
    expect(ops.status).toBe(200);
    expect(ops.body.data).toMatchObject({ name: 'Ops', description: 'operators', userCount: 0 });
    await admin.post('/api/groups', { name: 'Energy' });
    expect((await admin.post('/api/groups', { name: 'Ops' })).status).toBe(409);
    const renamed = await admin.put(`/api/groups/${ops.body.data.id}`, { name: 'Operations' });
    expect(renamed.body.data).toMatchObject({ name: 'Operations', description: 'operators' });
    const clash = await admin.put(`/api/groups/${ops.body.data.id}`, { name: 'Energy' });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toBe('用户组“Energy”已存在');
    const list = (await admin.get('/api/groups?name=oper&pageSize=1')).body.data;
    expect(list).toMatchObject({ total: 1, page: 1, pageSize: 1 });
    expect((await admin.del(`/api/groups/${ops.body.data.id}`)).status).toBe(200);
    expect((await admin.del(`/api/groups/${ops.body.data.id}`)).status).toBe(404);
    expect((await admin.put('/api/groups/999', { name: 'x' })).status).toBe(404);
  });

  it('creates roles with grants, refuses taken, reserved codes and unknown routes', async () => {
    const created = await admin.post('/api/roles', {
      code: 'energy-manager',
      name: '能源主管',
      resourcePaths: ['/sys_management/group', '/analysis'],
    });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({
      code: 'energy-manager',
      name: '能源主管',
      description: '',
      userCount: 0,
      // In menu order, whatever order they were sent in.
      resourcePaths: ['/analysis', '/sys_management/group'],
    });
    const taken = await admin.post('/api/roles', { code: 'energy-manager', name: 'x' });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('角色编码“energy-manager”已存在');
    for (const code of ['admin', 'editor']) {
      const reserved = await admin.post('/api/roles', { code, name: 'x' });
      expect(reserved.status).toBe(422);
    }
    const unknown = await admin.post('/api/roles', { code: 'x1', name: 'x', resourcePaths: ['/nope'] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toBe('以下资源不存在：/nope');

    const other = (await admin.post('/api/roles', { code: 'viewer', name: 'v' })).body.data;
    expect((await admin.put(`/api/roles/${other.id}`, { code: 'energy-manager', name: 'v' })).status).toBe(
      409,
    );
    const kept = await admin.put(`/api/roles/${created.body.data.id}`, {
      code: 'energy-lead',
      name: '能源负责人',
    });
    expect(kept.body.data).toMatchObject({
      code: 'energy-lead',
      resourcePaths: ['/analysis', '/sys_management/group'],
    });
    const replaced = await admin.put(`/api/roles/${created.body.data.id}`, {
      code: 'energy-lead',
      name: '能源负责人',
      resourcePaths: [],
    });
    expect(replaced.body.data.resourcePaths).toEqual([]);
    expect(
      (await admin.get('/api/roles?name=ENERGY')).body.data.list.map((r: { code: string }) => r.code),
    ).toEqual(['energy-lead']);
    expect((await admin.put('/api/roles/999', { code: 'zz', name: 'z' })).status).toBe(404);
  });

  it('refuses to delete a role in use, naming how many users hold it', async () => {
    const roleId = await roleGranting(admin, 'operator', []);
    await editorWith(() => t.app, admin, 'u1', [roleId]);
    await editorWith(() => t.app, admin, 'u2', [roleId]);
    const res = await admin.del(`/api/roles/${roleId}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('该角色仍被 2 个用户使用，请先从这些用户中移除');
    const en = await client(() => t.app, (await login(t.app)).token, { 'accept-language': 'en' }).del(
      `/api/roles/${roleId}`,
    );
    expect(en.body.message).toBe('This role is still held by 2 user(s); remove it from them first');
    expect((await admin.get('/api/roles')).body.data.list[0].userCount).toBe(2);
    const unused = await roleGranting(admin, 'spare', []);
    expect((await admin.del(`/api/roles/${unused}`)).status).toBe(200);
    expect((await admin.del(`/api/roles/${unused}`)).status).toBe(404);
  });

  it('puts role codes and granted routes in /api/auth/me, and grants work end to end', async () => {
    const managers = await roleGranting(admin, 'group-manager', ['/sys_management/group']);
    const devices = await roleGranting(admin, 'device-admin', ['/device_management']);
    const editor = await editorWith(() => t.app, admin, 'ed', [managers, devices]);
    const me = (await editor.api.get('/api/auth/me')).body.data;
    expect(me.roles).toEqual(['editor', 'device-admin', 'group-manager']);
    // A granted parent route covers its children.
    expect(me.routes.sort()).toEqual(
      [
        '/device_management',
        '/device_management/category',
        '/device_management/model',
        '/device_management/nodes',
        '/device_management/video',
        '/sys_management/group',
      ].sort(),
    );
    expect((await editor.api.post('/api/groups', { name: 'G' })).status).toBe(200);
    expect((await editor.api.get('/api/roles')).status).toBe(403);
    const thing = await editor.api.post('/api/thing/categories', { name: '电表' });
    expect(thing.status).toBe(200);

    const plain = await editorWith(() => t.app, admin, 'plain');
    const plainMe = (await plain.api.get('/api/auth/me')).body.data;
    expect(plainMe).toMatchObject({ roles: ['editor'], routes: [] });
    expect((await plain.api.post('/api/groups', { name: 'H' })).status).toBe(403);
    expect((await plain.api.post('/api/thing/categories', { name: '水表' })).status).toBe(403);

    // Taking the grant away takes effect on the next call.
    await admin.put(`/api/roles/${managers}`, { code: 'group-manager', name: 'g', resourcePaths: [] });
    expect((await editor.api.post('/api/groups', { name: 'G2' })).status).toBe(403);
  });
});
