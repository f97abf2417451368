import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../../test/helpers.ts';
import * as videoPlayback from '../../../db/migrations/2026-11-24-0420-video-playback.ts';
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
    // The console's form checks the same pattern (STREAM_URL_PATTERN): a scheme with no address, or
    // an address with a space in it, is refused here too; RTSP over TLS is taken.
    for (const streamUrl of ['rtsp://', 'rtsp://cam 1/live'])
      expect((await admin.post('/api/videos', { name: 'x', streamUrl })).status, streamUrl).toBe(400);
    const tls = await admin.post('/api/videos', { name: 'x', streamUrl: 'rtsps://u:p@10.0.0.5:322/live' });
    expect(tls.status).toBe(200);
    expect(tls.body.data.protocol).toBe('rtsp');
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
  it('keeps playback fields and infers the protocol of labels sent without one', async () => {
    const hls = await admin.post('/api/videos', {
      name: 'Hall',
      streamUrl: 'https://cams.example.com/hall/index.m3u8',
      recordingKind: 'hls',
      recordingUrl: 'https://nvr.example.com/hall/event.m3u8',
    });
    expect(hls.status, JSON.stringify(hls.body)).toBe(200);
    expect(hls.body.data).toMatchObject({
      protocol: 'hls',
      playUrl: null,
      recordingKind: 'hls',
      recordingUrl: 'https://nvr.example.com/hall/event.m3u8',
    });
    const rtsp = await admin.post('/api/videos', { name: 'Roof', streamUrl: 'rtsp://u:p@10.0.0.2/roof' });
    expect(rtsp.body.data).toMatchObject({ protocol: 'rtsp', playUrl: null, recordingKind: 'none' });
    const gateway = await admin.put(`/api/videos/${rtsp.body.data.id}`, {
      name: 'Roof',
      streamUrl: 'rtsp://u:p@10.0.0.2/roof',
      protocol: 'rtsp',
      playUrl: 'http://gw:8888/roof/index.m3u8',
      recordingKind: 'template',
      recordingUrl: 'http://gw:9996/get?path=roof&start={start}&duration=600s',
    });
    expect(gateway.status, JSON.stringify(gateway.body)).toBe(200);
    expect(gateway.body.data).toMatchObject({ protocol: 'rtsp', playUrl: 'http://gw:8888/roof/index.m3u8' });
    const whep = await admin.post('/api/videos', {
      name: 'Dock',
      streamUrl: 'http://gw:8889/dock/whep',
      protocol: 'webrtc',
      playUrl: 'http://ignored/',
      recordingKind: 'none',
      recordingUrl: 'http://ignored/too.m3u8',
    });
    expect(whep.body.data).toMatchObject({ protocol: 'webrtc', playUrl: null, recordingUrl: null });
  });

  it("refuses playback fields that cannot play, in the caller's language", async () => {
    const bad = async (body: object, message: string) => {
      const res = await admin.post('/api/videos', { name: 'x', ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toBe(message);
    };
    await bad(
      { streamUrl: 'rtsp://10.0.0.2/x', protocol: 'hls' },
      'HLS 与 WebRTC 的播放地址须以 http:// 或 https:// 开头；RTSP 摄像头请选择“RTSP（经网关）”',
    );
    await bad(
      { streamUrl: 'wss://gw/x', protocol: 'webrtc' },
      'HLS 与 WebRTC 的播放地址须以 http:// 或 https:// 开头；RTSP 摄像头请选择“RTSP（经网关）”',
    );
    await bad(
      { streamUrl: 'http://gw/x', protocol: 'rtsp' },
      'RTSP 摄像头的地址是摄像头自己的 rtsp:// 地址；网关的 http(s) 地址填在“网关播放地址”中',
    );
    await bad({ streamUrl: 'http://gw/x.m3u8', recordingKind: 'hls' }, '有录像时须填写录像地址');
    await bad(
      { streamUrl: 'http://gw/x.m3u8', recordingKind: 'template', recordingUrl: 'http://nvr/play?at=now' },
      '录像地址模板须含 {start} 占位符',
    );
    const schema = await admin.post('/api/videos', {
      name: 'x',
      streamUrl: 'http://gw/x.m3u8',
      recordingKind: 'hls',
      recordingUrl: 'ftp://nvr/x.m3u8',
    });
    expect(schema.status).toBe(400);
    const en = await t.app.inject({
      method: 'POST',
      url: '/api/videos',
      headers: { 'x-authorization': `Bearer ${(await login(t.app)).token}`, 'accept-language': 'en' },
      payload: { name: 'x', streamUrl: 'http://gw/x.m3u8', recordingKind: 'hls' },
    });
    expect(en.json().message).toBe('A recording needs a recording address');
  });

  it('lists cameras in natural order of their names (1#, 2#, … 10#)', async () => {
    for (const name of ['10#门口', '2#门口', '1#门口'])
      expect((await admin.post('/api/videos', { name, streamUrl: 'http://gw/cam.m3u8' })).status).toBe(200);
    const cameras = (await admin.get('/api/video/cameras')).body.data as { name: string }[];
    expect(cameras.map((c) => c.name)).toEqual(['1#门口', '2#门口', '10#门口']);
  });

  it('pages the admin list in natural order of names, sorted before paging, the keyword kept', async () => {
    for (const name of ['10#门口', '2#门口', '11#门口', '1#门口', '3#仓库'])
      expect((await admin.post('/api/videos', { name, streamUrl: 'http://gw/cam.m3u8' })).status).toBe(200);
    const names = async (query: string) =>
      ((await admin.get(`/api/videos?${query}`)).body.data.list as { name: string }[]).map((v) => v.name);
    expect(await names('page=1&pageSize=2')).toEqual(['1#门口', '2#门口']);
    expect(await names('page=2&pageSize=2')).toEqual(['3#仓库', '10#门口']);
    expect(await names('page=3&pageSize=2')).toEqual(['11#门口']);
    const gates = (await admin.get('/api/videos?name=门口&page=2&pageSize=2')).body.data;
    expect(gates).toMatchObject({ total: 4, page: 2 });
    expect(gates.list.map((v: { name: string }) => v.name)).toEqual(['10#门口', '11#门口']);
    expect((await admin.get('/api/videos?page=9&pageSize=2')).body.data).toMatchObject({
      list: [],
      total: 5,
    });
  });

  it("lists cameras to every user without RTSP sources, and a device's own and nearby ones", async () => {
    const { things } = await seedDevices(admin, 2);
    const hall = (await admin.post('/api/regions', { name: 'Hall' })).body.data;
    const line = (await admin.post('/api/regions', { name: 'Line', parentId: hall.id })).body.data;
    const other = (await admin.post('/api/regions', { name: 'Other' })).body.data;
    await admin.post(`/api/regions/${line.id}/bindings`, { thingIds: [things[0].id] });
    const make = async (body: object) => (await admin.post('/api/videos', body)).body.data.id as number;
    const hallCam = await make({ name: 'hall', streamUrl: 'http://gw/hall.m3u8', regionId: hall.id });
    const lineCam = await make({
      name: 'line',
      streamUrl: 'rtsp://admin:secret@10.0.0.3/line',
      playUrl: 'http://gw:8888/line/index.m3u8',
      regionId: line.id,
    });
    const ownCam = await make({
      name: 'own',
      streamUrl: 'https://gw/own/whep',
      protocol: 'webrtc',
      thingId: things[0].id,
      recordingKind: 'template',
      recordingUrl: 'https://nvr/play?from={start}&to={end}',
    });
    await make({ name: 'other', streamUrl: 'http://gw/other.m3u8', regionId: other.id });
    const bare = await make({ name: 'bare', streamUrl: 'rtsp://admin:secret@10.0.0.9/bare' });

    const editor = await editorWith(() => t.app, admin, 'viewer');
    const all = await editor.api.get('/api/video/cameras');
    expect(all.status).toBe(200);
    expect(JSON.stringify(all.body)).not.toContain('secret');
    expect(all.body.data).toHaveLength(5);
    expect(all.body.data.find((c: { id: number }) => c.id === lineCam)).toMatchObject({
      play: { protocol: 'hls', url: 'http://gw:8888/line/index.m3u8' },
      regionName: 'Line',
      match: null,
    });
    expect(all.body.data.find((c: { id: number }) => c.id === bare)).toMatchObject({ play: null });

    const mine = (await editor.api.get(`/api/video/cameras?thingId=${things[0].id}`)).body.data;
    expect(mine.map((c: { id: number; match: string }) => [c.id, c.match])).toEqual([
      [ownCam, 'thing'],
      [lineCam, 'region'],
      [hallCam, 'region'],
    ]);
    expect(mine[0]).toMatchObject({
      play: { protocol: 'webrtc', url: 'https://gw/own/whep' },
      recording: { kind: 'template', url: 'https://nvr/play?from={start}&to={end}' },
    });
    expect((await editor.api.get(`/api/video/cameras?thingId=${things[1].id}`)).body.data).toEqual([]);
  });
  it('migration 0420 makes labels stored before playback RTSP when their address is not http(s)', async () => {
    const db = t.app.db.db;
    await videoPlayback.down(db);
    const at = '2026-11-22T08:00:00.000Z';
    const legacy = (name: string, streamUrl: string) =>
      db
        .insertInto('videos')
        .values({
          name,
          stream_url: streamUrl,
          region_id: null,
          thing_id: null,
          created_at: at,
          updated_at: at,
        } as never)
        .execute();
    await legacy('old-hls', 'HTTPS://cams/a.m3u8');
    await legacy('old-rtsp', 'rtsp://admin:pw@10.0.0.2/x');
    await legacy('old-ws', 'wss://gw/x');
    await videoPlayback.up(db);
    const list = (await admin.get('/api/videos')).body.data.list as { name: string; protocol: string }[];
    expect(list.map((v) => [v.name, v.protocol])).toEqual([
      ['old-hls', 'hls'],
      ['old-rtsp', 'rtsp'],
      ['old-ws', 'rtsp'],
    ]);
    expect(list[0]).toMatchObject({ playUrl: null, recordingKind: 'none', recordingUrl: null });
  });
});
