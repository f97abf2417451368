import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, dialects, login, loginRequest, type TestApp } from '../../../test/helpers.ts';
import { type Client, client, editorWith, roleGranting } from '../system/testing.ts';
import { findUserByUsername } from './repository.ts';
import { createUserAdminService } from './service.ts';

describe.each(dialects())('users API on %s', (dialect) => {
  let t: TestApp;
  let admin: Client;
  let adminId: number;
  beforeEach(async () => {
    t = await buildTestApp(dialect);
    admin = client(() => t.app, (await login(t.app)).token);
    adminId = (await findUserByUsername(t.app.db.db, 'admin'))!.id;
  });
  afterEach(async () => {
    await t.close();
  });

  const createUser = async (username: string, extra: Record<string, unknown> = {}) => {
    const res = await admin.post('/api/users', {
      username,
      password: 'Secret12',
      name: username,
      userLevel: 2,
      ...extra,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };

  it('creates, lists with paging and search, updates and deletes users', async () => {
    const group = (await admin.post('/api/groups', { name: 'Ops' })).body.data;
    const roleId = await roleGranting(admin, 'operator', ['/energy_monitor']);
    const alice = await createUser('alice', { name: 'Alice Wong', roleIds: [roleId], groupIds: [group.id] });
    expect(alice).toMatchObject({
      username: 'alice',
      name: 'Alice Wong',
      userLevel: 2,
      disabled: false,
      roleIds: [roleId],
      groupIds: [group.id],
      avatar: '',
    });
    expect(alice).not.toHaveProperty('passwordHash');
    await createUser('bob', { name: '张三' });
    await createUser('carol_x');

    const page = (await admin.get('/api/users?page=1&pageSize=2')).body.data;
    expect(page).toMatchObject({ total: 4, page: 1, pageSize: 2 });
    expect(page.list.map((u: { username: string }) => u.username)).toEqual(['admin', 'alice']);
    const byName = (await admin.get(`/api/users?name=${encodeURIComponent('张')}`)).body.data;
    expect(byName.list.map((u: { username: string }) => u.username)).toEqual(['bob']);
    expect((await admin.get('/api/users?name=WONG')).body.data.total).toBe(1);
    // LIKE wildcards are taken literally.
    expect(
      (await admin.get('/api/users?name=_')).body.data.list.map((u: { username: string }) => u.username),
    ).toEqual(['carol_x']);

    const updated = await admin.put(`/api/users/${alice.id}`, {
      name: 'A.',
      userLevel: 3,
      roleIds: [],
      introduction: 'hi',
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      name: 'A.',
      userLevel: 3,
      roleIds: [],
      groupIds: [group.id],
      introduction: 'hi',
    });
    expect((await loginRequest(t.app, 'alice', 'Secret12')).statusCode).toBe(200);

    expect((await admin.del(`/api/users/${alice.id}`)).status).toBe(200);
    expect((await admin.del(`/api/users/${alice.id}`)).status).toBe(404);
    expect((await admin.put('/api/users/999', { name: 'x', userLevel: 2 })).status).toBe(404);
    expect((await admin.get('/api/groups')).body.data.list[0].userCount).toBe(0);
  });

  it('refuses a taken username, ignoring case, with 409', async () => {
    await createUser('alice');
    const res = await admin.post('/api/users', {
      username: 'ALICE',
      password: 'Secret12',
      name: 'x',
      userLevel: 2,
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 'CONFLICT', message: '用户名“ALICE”已存在' });
  });

  it('refuses unknown roles and groups with 422, and bad passwords with 400', async () => {
    const roles = await admin.post('/api/users', {
      username: 'x1',
      password: 'Secret12',
      name: 'x',
      userLevel: 2,
      roleIds: [999],
    });
    expect(roles.status).toBe(422);
    expect(roles.body.message).toBe('以下角色不存在：999');
    const groups = await admin.post('/api/users', {
      username: 'x1',
      password: 'Secret12',
      name: 'x',
      userLevel: 2,
      groupIds: [998],
    });
    expect(groups.status).toBe(422);
    expect(
      (await admin.post('/api/users', { username: 'x1', password: 'abc', name: 'x', userLevel: 2 })).status,
    ).toBe(400);
    expect((await admin.get('/api/users?name=x1')).body.data.total).toBe(0);
  });

  it('keeps an admin from deleting, disabling or demoting themselves (422)', async () => {
    const del = await admin.del(`/api/users/${adminId}`);
    expect(del.status).toBe(422);
    expect(del.body.message).toBe('不能删除自己的账号');
    const disable = await admin.put(`/api/users/${adminId}`, { name: 'a', userLevel: 1, disabled: true });
    expect(disable.status).toBe(422);
    expect(disable.body.message).toBe('不能禁用自己的账号或取消自己的管理员级别');
    expect((await admin.put(`/api/users/${adminId}`, { name: 'a', userLevel: 2 })).status).toBe(422);
    expect((await admin.put(`/api/users/${adminId}`, { name: '管理员2', userLevel: 1 })).status).toBe(200);
  });

  it('never removes the last enabled admin', async () => {
    const service = createUserAdminService(t.app.db.db, t.clock.now);
    // An admin acting on another account: the last enabled admin cannot go.
    const actor = { id: 999, username: 'ghost', roles: ['admin'], userLevel: 1, grants: [] };
    await expect(service.remove(actor, adminId)).rejects.toMatchObject({
      status: 422,
      options: { message: 'user.lastAdmin' },
    });
    await expect(
      service.update(actor, adminId, { name: 'a', userLevel: 1, disabled: true }),
    ).rejects.toMatchObject({
      status: 422,
    });
    await expect(service.update(actor, adminId, { name: 'a', userLevel: 2 })).rejects.toMatchObject({
      status: 422,
    });
    // With a second enabled admin, one of them may go.
    const second = await createUser('second', { userLevel: 1 });
    expect(
      (await admin.put(`/api/users/${second.id}`, { name: 's', userLevel: 1, disabled: true })).status,
    ).toBe(200);
    await expect(service.remove(actor, adminId)).rejects.toMatchObject({ status: 422 });
    expect(
      (await admin.put(`/api/users/${second.id}`, { name: 's', userLevel: 1, disabled: false })).status,
    ).toBe(200);
    await service.remove(actor, second.id);
  });

  it('resets a password: old refresh token revoked, new password works', async () => {
    const bob = await createUser('bob');
    const session = await login(t.app, 'bob', 'Secret12');
    const res = await admin.post(`/api/users/${bob.id}/password`, { password: 'NewPass99' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { ok: true } });
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      payload: { refreshToken: session.refreshToken },
    });
    expect(refresh.statusCode).toBe(401);
    expect((await loginRequest(t.app, 'bob', 'Secret12')).statusCode).toBe(401);
    expect((await loginRequest(t.app, 'bob', 'NewPass99')).statusCode).toBe(200);
    expect((await admin.post('/api/users/999/password', { password: 'NewPass99' })).status).toBe(404);
  });

  it('disabling a user refuses their access token and revokes their refresh token', async () => {
    const bob = await createUser('bob');
    const session = await login(t.app, 'bob', 'Secret12');
    const me = () => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(session.token) });
    expect((await me()).statusCode).toBe(200);
    expect(
      (await admin.put(`/api/users/${bob.id}`, { name: 'bob', userLevel: 2, disabled: true })).status,
    ).toBe(200);
    const refused = await me();
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('USER_DISABLED');
    await admin.put(`/api/users/${bob.id}`, { name: 'bob', userLevel: 2, disabled: false });
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      payload: { refreshToken: session.refreshToken },
    });
    expect(refresh.statusCode).toBe(401);
  });

  it('lets a holder of /sys_management/user manage ordinary accounts but not admins', async () => {
    const roleId = await roleGranting(admin, 'hr', ['/sys_management/user']);
    const hr = await editorWith(() => t.app, admin, 'hr', [roleId]);
    const plain = await editorWith(() => t.app, admin, 'plain');
    expect((await plain.api.get('/api/users')).status).toBe(403);
    expect((await hr.api.get('/api/users')).status).toBe(200);
    const made = await hr.api.post('/api/users', {
      username: 'new1',
      password: 'Secret12',
      name: 'n',
      userLevel: 2,
    });
    expect(made.status).toBe(200);
    const promote = await hr.api.put(`/api/users/${made.body.data.id}`, { name: 'n', userLevel: 1 });
    expect(promote.status).toBe(403);
    expect(promote.body.message).toBe('只有管理员可以管理管理员账号');
    expect((await hr.api.put(`/api/users/${hr.id}`, { name: 'hr', userLevel: 1 })).status).toBe(403);
    expect(
      (await hr.api.post('/api/users', { username: 'boss', password: 'Secret12', name: 'b', userLevel: 1 }))
        .status,
    ).toBe(403);
    expect((await hr.api.del(`/api/users/${adminId}`)).status).toBe(403);
    expect((await hr.api.post(`/api/users/${adminId}/password`, { password: 'Hacked123' })).status).toBe(403);
    expect((await hr.api.del(`/api/users/${made.body.data.id}`)).status).toBe(200);
  });
});
