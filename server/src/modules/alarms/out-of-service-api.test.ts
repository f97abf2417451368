import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../test/helpers.ts';
import { type Plant, seedPlant } from '../../ingest/testing.ts';
import { type Api, apiAs } from '../things/testing.ts';

const hot = {
  name: '功率过高',
  ability: 'P',
  condition: { kind: 'threshold', op: '>', value: 80 },
  onDelay: 0,
  offDelay: 0,
  deadband: 0,
  severity: 'major',
  message: '',
};

describe.each(dialects())('alarms out of service (ISA-18.2) on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let plant: Plant;
  let ruleId: number;
  let regionMonitorId: number;

  const runner = () => t.app.services.alarmRunner;
  const send = async (token: string, values: Record<string, number>) => {
    t.clock.advance(1000);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/${token}/telemetry`,
      payload: { ts: t.clock.now(), values },
    });
    expect(res.statusCode, res.body).toBe(200);
    await runner().flush();
  };
  const history = async (query: string) => {
    const res = await api.get(`/api/alarm/history?pageSize=50&${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { list: Record<string, unknown>[]; size: number };
  };
  const bell = async () => (await history('state=1')).size;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    api = apiAs(() => t.app, (await login(t.app)).token);
    plant = await seedPlant(api, 2);
    ruleId = (await api.post('/api/alarm/rules', { ...hot, categoryId: plant.categoryId })).body.data.id;
    await api.post(`/api/alarm/rules/${ruleId}/state`, { action: 'enable' });
    const region = (await api.post('/api/regions', { name: '二车间' })).body.data;
    await api.post(`/api/regions/${region.id}/bindings`, { thingIds: [plant.things[1]!.id] });
    await api.post('/api/alarm/monitors/batch', {
      appliedType: 'rule',
      appliedId: ruleId,
      targets: [
        { type: 'thing', id: plant.things[0]!.id },
        { type: 'region', id: region.id },
      ],
    });
    const monitors = (await api.get(`/api/alarm/monitors?appliedType=rule&appliedId=${ruleId}`)).body.data
      .list;
    regionMonitorId = monitors.find((m: { targetType: string }) => m.targetType === 'region').id;
    await runner().reload();
  });
  afterAll(async () => {
    await t.close();
  });

  it('takes a rule on one thing out of service: its open alarm closes with the reason, and it raises no more', async () => {
    const m1 = plant.things[0]!;
    await send(m1.token, { P: 95 });
    expect(await bell()).toBe(1);
    const alarm = (await history(`ruleId=${ruleId}&thingId=${m1.id}`)).list[0]!;

    const taken = await api.post('/api/alarm/out-of-service', {
      ruleId,
      thingId: m1.id,
      reason: '更换传感器',
    });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect(taken.body.data).toMatchObject({
      ruleId,
      thingId: m1.id,
      monitorId: null,
      name: `功率过高 · ${m1.name}`,
      reason: '更换传感器',
      username: 'admin',
    });
    const closed = (await api.get(`/api/alarm/history/${alarm.id}`)).body.data;
    expect(closed.state).toBe(4);
    // The detail carries the rule's condition for its chart.
    expect(closed.condition).toEqual(hot.condition);
    expect(closed.actions).toMatchObject([{ action: 'close', username: 'admin', comment: '更换传感器' }]);
    expect(await bell()).toBe(0);

    await runner().reload();
    await send(m1.token, { P: 10 });
    await send(m1.token, { P: 99 });
    expect((await history(`ruleId=${ruleId}&thingId=${m1.id}`)).size).toBe(1);
    expect(await bell()).toBe(0);

    const listed = (await api.get(`/api/alarm/out-of-service?ruleId=${ruleId}&thingId=${m1.id}`)).body.data;
    expect(listed.total).toBe(1);
    expect(
      (await api.post('/api/alarm/out-of-service', { ruleId, thingId: m1.id, reason: '再次' })).status,
    ).toBe(409);
  });

  it('takes a whole monitor out of service', async () => {
    const m2 = plant.things[1]!;
    const taken = await api.post('/api/alarm/out-of-service', {
      monitorId: regionMonitorId,
      reason: '停产检修',
    });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect(taken.body.data.name).toBe('功率过高 → 二车间');
    await runner().reload();
    await send(m2.token, { P: 95 });
    expect((await history(`thingId=${m2.id}`)).size).toBe(0);
    expect((await api.del(`/api/alarm/out-of-service/${taken.body.data.id}`)).status).toBe(200);
  });

  it('returned to service, it is watched again from now and raises on a condition that holds', async () => {
    const m1 = plant.things[0]!;
    const entry = (await api.get(`/api/alarm/out-of-service?ruleId=${ruleId}&thingId=${m1.id}`)).body.data
      .list[0];
    expect((await api.del(`/api/alarm/out-of-service/${entry.id}`)).status).toBe(200);
    expect((await api.del(`/api/alarm/out-of-service/${entry.id}`)).status).toBe(404);
    await runner().reload();
    await send(m1.token, { P: 97 });
    const alarms = await history(`ruleId=${ruleId}&thingId=${m1.id}`);
    expect(alarms.size).toBe(2);
    expect(alarms.list[0]).toMatchObject({ state: 1, value: '97' });
    expect(await bell()).toBe(1);
  });

  it('refuses what cannot be taken out, with reasons, and needs the history grant', async () => {
    const m1 = plant.things[0]!;
    const post = (body: unknown) => api.post('/api/alarm/out-of-service', body);
    expect((await post({ ruleId, thingId: m1.id, reason: '  ' })).status).toBe(400);
    expect((await post({ ruleId, reason: '缺设备' })).status).toBe(400);
    expect((await post({ monitorId: regionMonitorId, ruleId, reason: '两者' })).status).toBe(400);
    const unknownMonitor = await post({ monitorId: 999_999, reason: '无' });
    expect(unknownMonitor.status).toBe(422);
    expect(unknownMonitor.body.message).toContain('999999');
    expect((await post({ ruleId: 999_999, thingId: m1.id, reason: '无' })).status).toBe(422);
    expect((await post({ ruleId, thingId: 999_999, reason: '无' })).status).toBe(404);

    await api.post('/api/users', { username: 'shift3', password: 'Shift1234', name: '值班员', userLevel: 2 });
    const editor = apiAs(() => t.app, (await login(t.app, 'shift3', 'Shift1234')).token);
    expect(
      (await editor.post('/api/alarm/out-of-service', { ruleId, thingId: m1.id, reason: '试' })).status,
    ).toBe(403);
    expect((await editor.get('/api/alarm/out-of-service')).status).toBe(200);
  });
});
