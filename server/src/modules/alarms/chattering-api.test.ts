import { CHATTER_COUNT, CHATTER_MINUTES } from '@kilowatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../test/helpers.ts';
import { type Plant, seedPlant } from '../../ingest/testing.ts';
import { type Api, apiAs } from '../things/testing.ts';

/**
 * Chattering through the live path: points published by a device go through ingest and the live
 * hub to the runner, which groups the re-raises of an open alarm into it and flags it chattering,
 * so the bell counts it once however often it raises (docs/alarms.md "The engine").
 */
describe.each(dialects())('chattering alarms through the live hub on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let plant: Plant;
  let ruleId: number;

  const runner = () => t.app.services.alarmRunner;
  const send = async (token: string, P: number) => {
    t.clock.advance(5_000);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/${token}/telemetry`,
      payload: { ts: t.clock.now(), values: { P } },
    });
    expect(res.statusCode, res.body).toBe(200);
    await runner().flush();
  };
  const bell = async () => {
    const res = await api.get('/api/alarm/history?page=1&pageSize=5&state=1');
    expect(res.status).toBe(200);
    return res.body.data.size as number;
  };

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    api = apiAs(() => t.app, (await login(t.app)).token);
    plant = await seedPlant(api, 4);
    const rule = await api.post('/api/alarm/rules', {
      name: '功率过高',
      ability: 'P',
      categoryId: plant.categoryId,
      condition: { kind: 'threshold', op: '>', value: 80 },
      onDelay: 0,
      offDelay: 0,
      deadband: 0,
      severity: 'major',
      message: '',
    });
    ruleId = rule.body.data.id;
    await api.post(`/api/alarm/rules/${ruleId}/state`, { action: 'enable' });
    await api.post('/api/alarm/monitors/batch', {
      appliedType: 'rule',
      appliedId: ruleId,
      targets: plant.things.map((th) => ({ type: 'thing', id: th.id })),
    });
    await runner().reload();
  });
  afterAll(async () => {
    await t.close();
  });

  it(`more than ${CHATTER_COUNT} raises in ${CHATTER_MINUTES} minutes are one alarm, flagged, and the bell grows by one`, async () => {
    const [m1, m2] = plant.things;
    const start = t.clock.now();
    const raises = CHATTER_COUNT + 3;
    const seen: number[] = [];
    for (let i = 0; i < raises; i++) {
      await send(m1!.token, 95);
      seen.push(await bell());
      await send(m1!.token, 10);
    }
    // Every raise finds the bell at one: the re-raises reopen the same alarm, none rings anew.
    expect(seen).toEqual(Array(raises).fill(1));
    const history = (await api.get(`/api/alarm/history?ruleId=${ruleId}&thingId=${m1!.id}`)).body.data;
    expect(history.size).toBe(1);
    expect(history.list[0]).toMatchObject({ chattering: true, occurrences: raises, state: 3 });
    // All within the window: 16 points 5 s apart.
    expect(t.clock.now() - start).toBeLessThan(CHATTER_MINUTES * 60_000);

    // Another thing raising meanwhile is its own alarm: the bell grows by exactly one more.
    await send(m2!.token, 95);
    expect(await bell()).toBe(1);
    await send(m1!.token, 95);
    expect(await bell()).toBe(2);

    // The health report lists it among the chattering alarms with its occurrences, and counts every
    // annunciation: its raises + 1 and the other thing's one, of 2 distinct alarms.
    const health = (await api.get(`/api/alarm/health?startTime=${start}&endTime=${t.clock.now() + 1}`)).body
      .data;
    expect(health.chatteringCount).toBe(1);
    expect(health.chattering[0]).toMatchObject({
      thingId: m1!.id,
      occurrences: raises + 1,
      annunciations: raises + 1,
    });
    expect(health.total).toBe(raises + 2);
    expect(health.alarms).toBe(2);
  });

  it('a chattering alarm notifies up to the raise that flags it, then falls quiet', async () => {
    const notifier = t.app.services.alarmNotify.notifier;
    // Nothing listens on the discard port: sends fail and stay in the outbox, which is what is counted.
    // Loopback is reached only when the plant's admin allows it.
    await api.post('/api/sysconfigs', {
      identifier: 'webhookAllowedHosts',
      name: 'hooks',
      value: '127.0.0.1',
    });
    const route = await api.post('/api/alarm/notify/routes', {
      name: '值班群',
      channel: 'webhook',
      severities: ['major'],
      events: ['raise', 'return'],
      url: 'http://127.0.0.1:9/hook',
      enabled: true,
    });
    expect(route.status, JSON.stringify(route.body)).toBe(200);
    const m3 = plant.things[2]!;
    const notified = async () => {
      await notifier.flush();
      const outbox = (await api.get('/api/alarm/notify/outbox?pageSize=100')).body.data;
      return (outbox.list as { alarmId: number; event: string }[]).length;
    };
    const cycles: number[] = [];
    for (let i = 0; i < CHATTER_COUNT + 3; i++) {
      await send(m3.token, 95);
      await send(m3.token, 10);
      cycles.push(await notified());
    }
    const alarm = (await api.get(`/api/alarm/history?ruleId=${ruleId}&thingId=${m3.id}`)).body.data.list[0];
    expect(alarm.chattering).toBe(true);
    // Each raise and return notified until the alarm was flagged; from then on, nothing more.
    const flagged = cycles[cycles.length - 1]!;
    expect(flagged).toBeLessThanOrEqual(2 * (CHATTER_COUNT + 1));
    expect(cycles.slice(-2)).toEqual([flagged, flagged]);
    await api.del(`/api/alarm/notify/routes/${route.body.data.id}`);
  });

  it(`${CHATTER_COUNT} raises or fewer are not chattering`, async () => {
    const m2 = plant.things[1]!;
    for (let i = 0; i < CHATTER_COUNT - 1; i++) {
      await send(m2.token, 10);
      await send(m2.token, 95);
    }
    const alarm = (await api.get(`/api/alarm/history?ruleId=${ruleId}&thingId=${m2.id}`)).body.data.list[0];
    expect(alarm).toMatchObject({ chattering: false, occurrences: CHATTER_COUNT, state: 1 });
  });

  it('an alarm re-annunciating 8 times in 10 minutes is a rate of 8: the peak, the bad actor and the chattering list say so', async () => {
    const m4 = plant.things[3]!;
    await send(m4.token, 95);
    // From just after its raise: 8 returns to active-unacknowledged, 10 s apart.
    const from = t.clock.now() + 1;
    for (let i = 0; i < 8; i++) {
      await send(m4.token, 10);
      await send(m4.token, 95);
    }
    expect(t.clock.now() - from).toBeLessThan(10 * 60_000);
    const history = (await api.get(`/api/alarm/history?ruleId=${ruleId}&thingId=${m4.id}`)).body.data;
    expect(history.size).toBe(1);
    expect(history.list[0]).toMatchObject({ chattering: true, occurrences: 9 });

    const h = (await api.get(`/api/alarm/health?startTime=${from}&endTime=${from + 10 * 60_000}`)).body.data;
    expect(h).toMatchObject({ total: 8, alarms: 1, max: 8, average: 8, band: 'unacceptable' });
    expect(h.periods).toEqual([8]);
    expect(h.badActors).toEqual([
      { ruleId, ruleName: '功率过高', thingId: m4.id, thingName: m4.name, count: 8, alarms: 1, share: 1 },
    ]);
    expect(h.chattering).toMatchObject([{ thingId: m4.id, annunciations: 8, occurrences: 9 }]);
    expect(h).toMatchObject({ chatteringCount: 1, chatteringAnnunciations: 8 });
  });
});
