import { LOGO_MAX_BYTES, SYSTEM_SETTING_IDENTIFIER } from '@kilowatch/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../../test/helpers.ts';
import { type Client, client, editorWith } from '../testing.ts';

const png = (bytes: number) => `data:image/png;base64,${Buffer.alloc(bytes, 7).toString('base64')}`;

describe.each(dialects())('system settings API on %s', (dialect) => {
  let t: TestApp;
  let admin: Client;
  beforeEach(async () => {
    t = await buildTestApp(dialect);
    admin = client(() => t.app, (await login(t.app)).token);
  });
  afterEach(async () => {
    await t.close();
  });

  const systemSetting = async () =>
    (await admin.get(`/api/sysconfigs?identifier=${SYSTEM_SETTING_IDENTIFIER}`)).body.data.list[0];

  it('seeds systemSetting and serves the logo without a token', async () => {
    expect(await systemSetting()).toMatchObject({
      identifier: 'systemSetting',
      value: '{"img":"","show":true}',
    });
    const res = await t.app.inject({ method: 'GET', url: '/api/sysconfigs/logo' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { img: '', show: true } });

    const setting = await systemSetting();
    const img = png(1000);
    const put = await admin.put(`/api/sysconfigs/${setting.id}`, {
      identifier: 'systemSetting',
      name: '系统设置',
      value: JSON.stringify({ show: false, img }),
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/sysconfigs/logo' })).json()).toEqual({
      data: { img, show: false },
    });
    // A restart keeps the saved logo rather than seeding over it.
    await t.restart();
    expect((await t.app.inject({ method: 'GET', url: '/api/sysconfigs/logo' })).json().data.show).toBe(false);
  });

  it('validates the logo on write with a clear 400', async () => {
    const setting = await systemSetting();
    const token = (await login(t.app)).token;
    const write = (value: string, lang = 'en') =>
      t.app.inject({
        method: 'PUT',
        url: `/api/sysconfigs/${setting.id}`,
        headers: { 'x-authorization': `Bearer ${token}`, 'accept-language': lang },
        payload: { identifier: 'systemSetting', name: 's', value },
      });

    const big = await write(JSON.stringify({ img: png(LOGO_MAX_BYTES + 2048), show: true }));
    expect(big.statusCode).toBe(400);
    expect(big.json()).toEqual({
      code: 'BAD_REQUEST',
      message: 'The logo image is 258 KB; at most 256 KB is allowed',
    });
    const gif = await write(JSON.stringify({ img: 'data:image/gif;base64,R0lGOD', show: true }));
    expect(gif.statusCode).toBe(400);
    expect(gif.json().message).toBe(
      'The logo image must be empty, an http(s) address or a data URL of type image/png, image/jpeg, image/svg+xml, image/webp',
    );
    const notJson = await write('{img}', 'zh');
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().message).toContain('Logo 设置应为 JSON');
    expect((await write(JSON.stringify({ img: '', show: 'yes' }))).statusCode).toBe(400);
    // Creating another row under the same rule: validation applies to any write of systemSetting.
    expect(
      (await admin.post('/api/sysconfigs', { identifier: 'systemSetting', name: 'x', value: 'nope' })).status,
    ).toBe(400);
  });

  it('creates, filters, pages, changes and deletes settings; identifiers are unique (409)', async () => {
    const erp = await admin.post('/api/sysconfigs', { identifier: 'erp', name: 'ERP', value: '{"url":"x"}' });
    expect(erp.status).toBe(200);
    expect(erp.body.data).toMatchObject({
      identifier: 'erp',
      name: 'ERP',
      value: '{"url":"x"}',
      description: '',
    });
    await admin.post('/api/sysconfigs', { identifier: 'other', name: 'O', value: 'plain text' });
    const dup = await admin.post('/api/sysconfigs', { identifier: 'erp', name: 'again', value: '' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('标识“erp”已存在');

    const page = (await admin.get('/api/sysconfigs?page=2&pageSize=2')).body.data;
    expect(page).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page.list).toHaveLength(1);
    expect((await admin.get('/api/sysconfigs?identifier=erp')).body.data.list).toHaveLength(1);

    const id = erp.body.data.id;
    const put = await admin.put(`/api/sysconfigs/${id}`, {
      identifier: 'erp2',
      name: 'ERP',
      value: 'v',
      description: 'd',
    });
    expect(put.body.data).toMatchObject({ identifier: 'erp2', value: 'v', description: 'd' });
    expect(
      (await admin.put(`/api/sysconfigs/${id}`, { identifier: 'other', name: 'x', value: '' })).status,
    ).toBe(409);
    expect((await admin.del(`/api/sysconfigs/${id}`)).status).toBe(200);
    expect((await admin.del(`/api/sysconfigs/${id}`)).status).toBe(404);
    expect((await admin.put('/api/sysconfigs/999', { identifier: 'zz', name: 'x', value: '' })).status).toBe(
      404,
    );
  });

  it('refuses to delete or rename systemSetting (422)', async () => {
    const setting = await systemSetting();
    const del = await admin.del(`/api/sysconfigs/${setting.id}`);
    expect(del.status).toBe(422);
    expect(del.body.message).toBe('系统设置“systemSetting”不能删除或改名');
    const rename = await admin.put(`/api/sysconfigs/${setting.id}`, {
      identifier: 'logo',
      name: 'x',
      value: '{"img":"","show":true}',
    });
    expect(rename.status).toBe(422);
    expect(await systemSetting()).toBeTruthy();
  });

  it('is for admins and holders of /sys_config only, except the logo', async () => {
    const editor = await editorWith(() => t.app, admin, 'ed');
    expect((await editor.api.get('/api/sysconfigs')).status).toBe(403);
    expect((await editor.api.post('/api/sysconfigs', { identifier: 'x', name: 'x', value: '' })).status).toBe(
      403,
    );
    expect((await editor.api.get('/api/sysconfigs/logo')).status).toBe(200);
  });
});
