import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../test/helpers.ts';
import { type Plant, seedPlant } from '../../ingest/testing.ts';
import { type Api, apiAs } from './testing.ts';

const MINUTE = 60_000;

describe.each(dialects())('device list presence on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let plant: Plant;
  const send = async (token: string, payload: unknown) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/telemetry',
      payload: payload as string,
      headers: { 'x-device-token': token },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const list = async (query = '') => {
    const paging = query.includes('pageSize=') ? '' : '&pageSize=100';
    const res = await api.get(`/api/thing/things?page=1${paging}${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as {
      total: number;
      list: { identifier: string; lastSeen: number | null; presence: string }[];
    };
  };
  const presence = async (query = '') =>
    Object.fromEntries((await list(query)).list.map((x) => [x.identifier, [x.presence, x.lastSeen]]));

  beforeEach(async () => {
    t = await buildTestApp(dialect);
    api = apiAs(() => t.app, (await login(t.app)).token);
    plant = await seedPlant(api, 3);
  });
  afterEach(async () => {
    await t.close();
  });

  it('answers when each thing last sent and whether that is within the online window', async () => {
    const now = t.clock.now();
    const [m1, m2] = plant.things;
    await send(m1!.token, { ts: now - MINUTE, values: { P: 1 } });
    await send(m2!.token, { ts: now - 60 * MINUTE, values: { P: 2, EP: 10 } });
    expect(await presence()).toEqual({
      M1: ['online', now - MINUTE],
      M2: ['offline', now - 60 * MINUTE],
      M3: ['never', null],
      [plant.pump.identifier]: ['never', null],
    });

    // Five minutes without a value is still online; a moment more is not.
    t.clock.advance(4 * MINUTE);
    expect((await presence()).M1).toEqual(['online', now - MINUTE]);
    t.clock.advance(MINUTE + 1);
    expect((await presence()).M1).toEqual(['offline', now - MINUTE]);
  });

  it('filters by presence with paging, together with the other filters', async () => {
    const now = t.clock.now();
    const [m1, m2, m3] = plant.things;
    await send(m1!.token, { ts: now - MINUTE, values: { P: 1 } });
    await send(m2!.token, { ts: now - 2 * MINUTE, values: { P: 1 } });
    await send(m3!.token, { ts: now - 90 * MINUTE, values: { P: 1 } });

    const online = await list('&presence=online&pageSize=1');
    expect(online.total).toBe(2);
    expect(online.list.map((x) => x.identifier)).toEqual(['M1']);
    const second = await api.get('/api/thing/things?presence=online&page=2&pageSize=1');
    expect(second.body.data.list.map((x: { identifier: string }) => x.identifier)).toEqual(['M2']);
    expect((await list('&presence=offline')).list.map((x) => x.identifier)).toEqual(['M3']);
    expect((await list('&presence=never')).list.map((x) => x.identifier)).toEqual([plant.pump.identifier]);
    expect((await list(`&presence=never&categoryId=${plant.categoryId}`)).total).toBe(0);
    expect((await list('&presence=online&name=m2')).list.map((x) => x.identifier)).toEqual(['M2']);
    expect((await api.get('/api/thing/things?presence=asleep')).status).toBe(400);
  });

  it('gives a thing that reports slowly three of its intervals before it is offline', async () => {
    const now = t.clock.now();
    const m1 = plant.things[0]!;
    await send(m1.token, [
      { ts: now - 30 * MINUTE, values: { P: 1 } },
      { ts: now - 15 * MINUTE, values: { P: 2 } },
    ]);
    expect((await presence()).M1).toEqual(['online', now - 15 * MINUTE]);
    t.clock.advance(29 * MINUTE);
    expect((await presence()).M1?.[0]).toBe('online');
    t.clock.advance(2 * MINUTE);
    // The access token lives 30 minutes.
    api = apiAs(() => t.app, (await login(t.app)).token);
    expect((await presence()).M1?.[0]).toBe('offline');
  });

  it('keeps presence across a restart (the store reloads its latest values)', async () => {
    const now = t.clock.now();
    await send(plant.things[0]!.token, { ts: now - MINUTE, values: { P: 1 } });
    await t.restart();
    api = apiAs(() => t.app, (await login(t.app)).token);
    expect((await presence()).M1).toEqual(['online', now - MINUTE]);
  });
});
