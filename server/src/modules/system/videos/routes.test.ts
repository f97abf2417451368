import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../../test/helpers.ts';
import { seedDevices } from '../../things/testing.ts';
import { type Client, client, editorWith, roleGranting } from '../testing.ts';

describe.each(dialects())('video labels API on %s', (dialect) => {
  let t: TestApp;
  let admin: Client;
  beforeEach(async () => {
    t = await buildTestApp(dialect);
    admin = client(() => t.app, (await login(t.app)).token);
  });
  afterEach(async () => {
    await t.close();
  });

  it('creates, lists, changes and deletes labels with region and thing names', async () => {
    const { things } = await seedDevices(admin, 1);
    const region = (await admin.post('/api/regions', { name: '一车间' })).body.data;
    const created = await admin.post('/api/videos', {
      name: 'Gate camera',
      streamUrl: 'https://cams.example.com/gate.m3u8',
      regionId: region.id,
      thingId: things[0].id,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data).toMatchObject({
      name: 'Gate camera',
      regionId: region.id,
      regionName: '一车间',
      thingId: things[0].id,
      thingName: '电表1',
    });
    await admin.post('/api/videos', { name: 'Roof', streamUrl: 'rtsp://10.0.0.2/roof' });
    const list = (await admin.get('/api/videos?name=gate')).body.data;
    expect(list).toMatchObject({ total: 1, page: 1, pageSize: 10 });

    const id = created.body.data.id;
    const put = await admin.put(`/api/videos/${id}`, {
      name: 'Gate',
      streamUrl: 'wss://x/y',
      regionId: null,
    });
    expect(put.body.data).toMatchObject({ name: 'Gate', regionId: null, regionName: null, thingId: null });
    expect((await admin.del(`/api/videos/${id}`)).status).toBe(200);
    expect((await admin.del(`/api/videos/${id}`)).status).toBe(404);
    expect((await admin.put('/api/videos/999', { name: 'x', streamUrl: 'http://x' })).status).toBe(404);
  });

  it('refuses unknown regions and things with 422 and bad stream addresses with 400', async () => {
    const region = await admin.post('/api/videos', { name: 'x', streamUrl: 'http://x', regionId: 999 });
    expect(region.status).toBe(422);
    expect(region.body.message).toBe('区域 999 不存在');
    expect((await admin.post('/api/videos', { name: 'x', streamUrl: 'http://x', thingId: 999 })).status).toBe(
      422,
    );
    expect((await admin.post('/api/videos', { name: 'x', streamUrl: 'javascript:alert(1)' })).status).toBe(
      400,
    );
  });

  it('keeps a label when its region goes, without the region', async () => {
    const region = (await admin.post('/api/regions', { name: 'R' })).body.data;
    const video = (await admin.post('/api/videos', { name: 'v', streamUrl: 'http://x', regionId: region.id }))
      .body.data;
    await admin.del(`/api/regions/${region.id}`);
    expect((await admin.get('/api/videos')).body.data.list[0]).toMatchObject({
      id: video.id,
      regionId: null,
    });
  });

  it('needs /device_management/video to read as well as to write', async () => {
    const editor = await editorWith(() => t.app, admin, 'ed');
    expect((await editor.api.get('/api/videos')).status).toBe(403);
    const roleId = await roleGranting(admin, 'video', ['/device_management/video']);
    const granted = await editorWith(() => t.app, admin, 'granted', [roleId]);
    expect((await granted.api.get('/api/videos')).status).toBe(200);
    expect((await granted.api.post('/api/videos', { name: 'v', streamUrl: 'http://x' })).status).toBe(200);
  });
});
