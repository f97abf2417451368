import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../test/helpers.ts';
import { editorWith } from '../modules/system/testing.ts';
import { type Api, apiAs } from '../modules/things/testing.ts';
import { type Plant, seedPlant } from './testing.ts';

describe.each(dialects())('HTTP ingest on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let plant: Plant;
  let now: number;
  const post = (url: string, payload: unknown, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url, payload: payload as string, headers });
  const realtime = async (thingId: number) => {
    const res = await api.get(`/api/query/realtime?resourceId=${thingId}`);
    expect(res.status).toBe(200);
    return Object.fromEntries(
      (res.body.data as { operation: string; value: unknown; ts: number | null }[]).map((s) => [
        s.operation,
        [s.value, s.ts],
      ]),
    );
  };

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    api = apiAs(() => t.app, (await login(t.app)).token);
    plant = await seedPlant(api, 4);
    now = t.clock.now();
  });
  afterAll(async () => {
    await t.close();
  });

  it('writes a JSON message with the device token and answers once durable', async () => {
    const m1 = plant.things[0]!;
    const res = await post(
      '/api/telemetry',
      { ts: (now - 60_000) / 1000, values: { P: 12.5, EP: '100.5', RUN: '运行', ON: true, FW: 'v1.2' } },
      { 'x-device-token': m1.token },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { accepted: 5, rejected: [] } });
    expect(await realtime(m1.id)).toEqual({
      P: [12.5, now - 60_000],
      EP: [100.5, now - 60_000],
      RUN: [1, now - 60_000],
      ON: [1, now - 60_000],
      FW: ['v1.2', now - 60_000],
    });
  });

  it('takes a gzip-compressed JSON body (inflated in a parse worker) and names a corrupt one', async () => {
    const m1 = plant.things[0]!;
    const headers = { 'x-device-token': m1.token, 'content-encoding': 'gzip' };
    const res = await post(
      '/api/telemetry',
      gzipSync(JSON.stringify({ ts: now - 50_000, values: { P: 13.5, FW: 'v1.3' } })),
      headers,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { accepted: 2, rejected: [] } });
    expect(await realtime(m1.id)).toMatchObject({ P: [13.5, now - 50_000], FW: ['v1.3', now - 50_000] });
    const bad = await post('/api/telemetry', Buffer.from('not gzip'), headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^unable to decompress the gzip body: /);
  });

  it('rejects bad points one by one and keeps the rest of the batch', async () => {
    const m2 = plant.things[1]!;
    const res = await post(
      '/api/telemetry',
      [
        { ts: now - 10_000, values: { P: 1, NOPE: 2, ON: 'maybe' } },
        { ts: now + 3_600_000, values: { P: 2 } },
        { ts: now - 400 * 86_400_000, values: { P: 3 } },
        'garbage',
        { values: { P: null, EP: 'abc', RUN: 7 } },
        { ts: 'soon', values: { P: 4 } },
        { values: { P: '5' } },
      ],
      { authorization: `Bearer ${m2.token}` },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      accepted: 2,
      rejected: [
        { index: 0, metric: 'NOPE', reason: 'unknown metric' },
        { index: 0, metric: 'ON', reason: 'bad value' },
        { index: 1, metric: 'P', reason: 'bad timestamp' },
        { index: 2, metric: 'P', reason: 'bad timestamp' },
        { index: 3, metric: null, reason: 'bad message' },
        { index: 4, metric: 'P', reason: 'bad value' },
        { index: 4, metric: 'EP', reason: 'bad value' },
        { index: 4, metric: 'RUN', reason: 'bad value' },
        { index: 5, metric: 'P', reason: 'bad timestamp' },
      ],
    });
    expect((await realtime(m2.id)).P).toEqual([5, now]);
  });

  it('answers 400 when every value was rejected and 401 for a bad or missing token', async () => {
    const m1 = plant.things[0]!;
    const all = await post('/api/telemetry', { values: { NOPE: 1 } }, { 'x-device-token': m1.token });
    expect(all.statusCode).toBe(400);
    expect(all.json()).toMatchObject({
      code: 'BAD_REQUEST',
      data: { accepted: 0, rejected: [{ index: 0, metric: 'NOPE', reason: 'unknown metric' }] },
    });
    expect((await post('/api/telemetry', { values: {} }, { 'x-device-token': m1.token })).statusCode).toBe(
      200,
    );
    const bad = await post('/api/telemetry', { values: { P: 1 } }, { 'x-device-token': 'nope' });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().code).toBe('UNAUTHORIZED');
    expect((await post('/api/telemetry', { values: { P: 1 } }, {})).statusCode).toBe(401);
    // A user's access token is not a device token.
    const userToken = (await login(t.app)).token;
    expect(
      (await post('/api/telemetry', { values: { P: 1 } }, { authorization: `Bearer ${userToken}` }))
        .statusCode,
    ).toBe(401);
  });

  it('answers bad device input with 400 and the reason, in English unless asked otherwise', async () => {
    const m3 = plant.things[2]!;
    const json = { 'x-device-token': m3.token, 'content-type': 'application/json' };
    const malformed = await post('/api/telemetry', '{"values":{"P":1}', json);
    expect(malformed.statusCode, malformed.body).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'BAD_REQUEST' });
    expect(malformed.json().message).toMatch(/^The body is not valid JSON: /);
    const empty = await post('/api/telemetry', '', json);
    expect(empty.statusCode, empty.body).toBe(400);
    expect(empty.json()).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'The body is empty: send a JSON object or array',
    });
    // A device that asks for another language gets it.
    const spanish = await post('/api/telemetry', '', { ...json, 'accept-language': 'es' });
    expect(spanish.json().message).not.toBe(empty.json().message);
    // __proto__ is a key like any other: beside ts/values it makes the message bad (400, nothing
    // written), inside values it is no ability; nothing is polluted.
    const proto = await post(
      '/api/telemetry',
      '{"values":{"__proto__":{"polluted":true},"P":4},"__proto__":{"ts":1}}',
      json,
    );
    expect(proto.statusCode, proto.body).toBe(400);
    expect(proto.json().data).toEqual({
      accepted: 0,
      rejected: [
        { index: 0, metric: '__proto__', reason: 'bad message' },
        { index: 0, metric: '__proto__', reason: 'bad message' },
        { index: 0, metric: 'P', reason: 'bad message' },
      ],
    });
    // In a batch, only the bad message is refused.
    const batch = await post(
      '/api/telemetry',
      '[{"__proto__":{},"values":{"P":4}},{"values":{"P":5}}]',
      json,
    );
    expect(batch.statusCode, batch.body).toBe(200);
    expect(batch.json().data).toEqual({
      accepted: 1,
      rejected: [
        { index: 0, metric: '__proto__', reason: 'bad message' },
        { index: 0, metric: 'P', reason: 'bad message' },
      ],
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const protoOnly = await post('/api/telemetry', '{"values":{"__proto__":1}}', json);
    expect(protoOnly.statusCode, protoOnly.body).toBe(400);
    expect(protoOnly.json()).toMatchObject({
      code: 'BAD_REQUEST',
      data: { accepted: 0, rejected: [{ index: 0, metric: '__proto__', reason: 'unknown metric' }] },
    });
    // An unknown token is a 401 in English for a device that sends no Accept-Language.
    const unknown = await post('/api/telemetry', '{"P":1}', { 'x-device-token': 'nope' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toMatch(/^Invalid device token/);
  });

  describe('ThingsBoard devices', () => {
    const tb = (token: string, payload: string, headers: Record<string, string> = {}) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/${token}/telemetry`,
        payload,
        headers: { 'content-type': 'application/json', ...headers },
      });

    it('takes every ThingsBoard telemetry shape on POST /api/telemetry', async () => {
      const m3 = plant.things[2]!;
      const headers = { 'x-device-token': m3.token, 'content-type': 'application/json' };
      const flat = await post('/api/telemetry', '{"P":13.5,"EP":5.2}', headers);
      expect(flat.statusCode, flat.body).toBe(200);
      expect(flat.json()).toEqual({ data: { accepted: 2, rejected: [] } });
      expect(await realtime(m3.id)).toMatchObject({ P: [13.5, now], EP: [5.2, now] });
      const mixed = await post(
        '/api/telemetry',
        JSON.stringify([{ P: 1 }, { ts: now, values: { EP: 6 } }, { RUN: '运行', NOPE: 1 }]),
        headers,
      );
      expect(mixed.statusCode, mixed.body).toBe(200);
      expect(mixed.json().data).toEqual({
        accepted: 3,
        rejected: [{ index: 2, metric: 'NOPE', reason: 'unknown metric' }],
      });
      expect(await realtime(m3.id)).toMatchObject({ P: [1, now], EP: [6, now], RUN: [1, now] });
      const extra = await post(
        '/api/telemetry',
        JSON.stringify({ ts: now, values: { P: 2 }, x: 1 }),
        headers,
      );
      // A key beside ts/values: the message is bad, its values not written (docs/ingest.md).
      expect(extra.statusCode).toBe(400);
      expect(extra.json().data).toEqual({
        accepted: 0,
        rejected: [
          { index: 0, metric: 'x', reason: 'bad message' },
          { index: 0, metric: 'P', reason: 'bad message' },
        ],
      });
    });

    it('serves the ThingsBoard HTTP device API: token in the path, 200 / 400 / 401 with a reason', async () => {
      const m4 = plant.things[3]!;
      const ok = await tb(m4.token, '{"P":21.5,"ON":true}');
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toEqual({ data: { accepted: 2, rejected: [] } });
      expect(await realtime(m4.id)).toMatchObject({ P: [21.5, now], ON: [1, now] });
      const timed = await tb(
        m4.token,
        JSON.stringify([
          { ts: now - 4000, values: { P: 22 } },
          { ts: now - 3000, values: { P: 23 } },
        ]),
      );
      expect(timed.statusCode, timed.body).toBe(200);
      expect(timed.json()).toEqual({ data: { accepted: 2, rejected: [] } });
      // ThingsBoard devices often send no content type, or text/plain.
      const untyped = await t.app.inject({
        method: 'POST',
        url: `/api/v1/${m4.token}/telemetry`,
        payload: '{"P":24}',
        headers: { 'content-type': 'text/plain' },
      });
      expect(untyped.statusCode, untyped.body).toBe(200);

      const unknown = await tb('no-such-token', '{"P":1}');
      expect(unknown.statusCode).toBe(401);
      expect(unknown.json()).toEqual({
        code: 'UNAUTHORIZED',
        message: 'Unknown device access token in the URL: use /api/v1/<device access token>/telemetry',
      });
      const broken = await tb(m4.token, '{"P":1,');
      expect(broken.statusCode).toBe(400);
      expect(broken.json().message).toMatch(/^The body is not valid JSON: /);
      const rejected = await tb(m4.token, '{"NOPE":1}');
      expect(rejected.statusCode).toBe(400);
      expect(rejected.json()).toEqual({
        code: 'BAD_REQUEST',
        message: 'Every value was rejected (1): see data.rejected',
        data: { accepted: 0, rejected: [{ index: 0, metric: 'NOPE', reason: 'unknown metric' }] },
      });
      // Asked for Chinese, answered in Chinese.
      const zh = await tb('no-such-token', '{"P":1}', { 'accept-language': 'zh-CN' });
      expect(zh.json().message).not.toBe(unknown.json().message);
    });
  });

  describe('line protocol', () => {
    const write = (body: string | Buffer, headers: Record<string, string>, query = '') =>
      t.app.inject({
        method: 'POST',
        url: `/api/v2/write?org=plant&bucket=kilowatch${query}`,
        payload: body,
        headers,
      });

    it('takes a gzip-compressed Telegraf batch (Token auth, ns timestamps) and answers 204', async () => {
      const m1 = plant.things[0]!;
      const ns = (ms: number) => `${BigInt(ms) * 1_000_000n}`;
      const body = [
        `modbus,host=gw01,name=meter1,slave_id=1,type=holding_register P=20.5,EP=101.25 ${ns(now - 30_000)}`,
        `modbus,host=gw01,name=meter1,slave_id=1,type=coil ON=false,RUN=0i ${ns(now - 30_000)}`,
        `status,host=gw01 FW="v2.0 \\"beta\\"" ${ns(now - 20_000)}`,
        '',
      ].join('\n');
      const res = await write(gzipSync(body), {
        authorization: `Token ${m1.token}`,
        'content-type': 'text/plain; charset=utf-8',
        'content-encoding': 'gzip',
        'user-agent': 'Telegraf/1.32.0 Go/1.23.0',
      });
      expect(res.statusCode, res.body).toBe(204);
      expect(res.body).toBe('');
      const rt = await realtime(m1.id);
      expect(rt).toMatchObject({
        P: [20.5, now - 30_000],
        EP: [101.25, now - 30_000],
        ON: [0, now - 30_000],
        RUN: [0, now - 30_000],
        FW: ['v2.0 "beta"', now - 20_000],
      });
    });

    it('maps measurement_field when the field alone is not an ability; honours precision', async () => {
      const m2 = plant.things[1]!;
      const res = await write(
        `electric P=7,extra=1\nx EP=3 ${Math.floor((now - 5000) / 1000)}`,
        { authorization: `Token ${m2.token}` },
        '&precision=s',
      );
      // `extra` is neither an ability nor `electric_extra`: a partial write.
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        code: 'BAD_REQUEST',
        message: 'partial write: line 1: unknown metric "extra"',
      });
      expect((await realtime(m2.id)).EP).toEqual([3, now - 5000]);
    });

    it('answers unable to parse with the line numbers when no line parses, partial write when some do', async () => {
      const m1 = plant.things[0]!;
      const headers = { authorization: `Token ${m1.token}`, 'content-type': 'text/plain' };
      const none = await write('# only junk\nm\nm P=abc', headers);
      expect(none.statusCode).toBe(400);
      expect(none.json().message).toBe(
        'unable to parse: line 2: missing fields; line 3: field "P": invalid value "abc"',
      );
      const some = await write('m P=1\nm P=\nm P=2', headers);
      expect(some.statusCode).toBe(400);
      expect(some.json().message).toBe('partial write: line 2: field "P" has no value');
      const noType = await t.app.inject({
        method: 'POST',
        url: '/api/v2/write',
        payload: 'm P=3',
        headers: { authorization: `Token ${m1.token}` },
      });
      expect(noType.statusCode).toBe(204);
      expect((await realtime(m1.id)).P?.[0]).toBe(3);
      expect((await write('m P=1', { authorization: 'Token nope' })).statusCode).toBe(401);
      const badGzip = await write(Buffer.from('not gzip'), { ...headers, 'content-encoding': 'gzip' });
      expect(badGzip.statusCode).toBe(400);
    });
  });

  it('counts everything for GET /api/telemetry/stats (admins and device managers only)', async () => {
    const res = await api.get('/api/telemetry/stats');
    expect(res.status).toBe(200);
    const stats = res.body.data;
    expect(stats.accepted).toBeGreaterThanOrEqual(13);
    expect(stats.rejected).toMatchObject({
      'unknown metric': expect.any(Number),
      'bad timestamp': 3,
      'bad message': expect.any(Number),
    });
    expect(stats.received).toBe(
      stats.accepted + Object.values(stats.rejected as Record<string, number>).reduce((a, b) => a + b, 0),
    );
    expect(stats.bySource).toMatchObject({ http: expect.any(Number), line: expect.any(Number) });
    expect(stats.lastError).toMatchObject({ source: expect.any(String), message: expect.any(String) });
    expect(stats.mqtt).toEqual({ mode: 'off', port: null, connected: false, clients: 0 });
    const editor = await editorWith(() => t.app, api as never, 'watcher');
    expect((await editor.api.get('/api/telemetry/stats')).status).toBe(403);
  });

  it('takes a metric as soon as its ability is added, and refuses it as soon as it is removed', async () => {
    const m4 = plant.things[3]!;
    const send = async () =>
      (
        await post(
          '/api/telemetry',
          { ts: now - 5_000, values: { P: 1, HZ: 50 } },
          { 'x-device-token': m4.token },
        )
      ).json().data;
    expect(await send()).toEqual({
      accepted: 1,
      rejected: [{ index: 0, metric: 'HZ', reason: 'unknown metric' }],
    });
    const added = await api.post(`/api/thing/categories/${plant.categoryId}/abilities`, {
      identifier: 'HZ',
      name: '频率',
      unit: 'Hz',
    });
    expect(added.status).toBe(200);
    // The thing's abilities were just read (and cached): the write above must reach ingest at once.
    expect(await send()).toEqual({ accepted: 2, rejected: [] });
    expect((await api.del(`/api/thing/things/${m4.id}/abilities?ids=${added.body.data.id}`)).status).toBe(
      200,
    );
    expect(await send()).toEqual({
      accepted: 1,
      rejected: [{ index: 0, metric: 'HZ', reason: 'unknown metric' }],
    });
  });
});
