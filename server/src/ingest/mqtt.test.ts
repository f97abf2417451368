import { createServer, type Server } from 'node:net';
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../test/helpers.ts';
import { type Api, apiAs } from '../modules/things/testing.ts';
import { freePort, type Plant, seedPlant } from './testing.ts';

const connect = (port: number, username: string) =>
  mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
    username,
    password: 'ignored',
    reconnectPeriod: 0,
    connectTimeout: 5000,
  });

describe.each(dialects())('MQTT ingest (in-process broker) on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let plant: Plant;
  let port: number;
  const clients: MqttClient[] = [];
  const latest = async (thingId: number) =>
    Object.fromEntries(
      (
        (await api.get(`/api/query/realtime?resourceId=${thingId}`)).body.data as {
          operation: string;
          value: unknown;
        }[]
      ).map((s) => [s.operation, s.value]),
    );

  beforeAll(async () => {
    port = await freePort();
    t = await buildTestApp(dialect, { env: { MQTT_PORT: String(port), HOST: '127.0.0.1' } });
    api = apiAs(() => t.app, (await login(t.app)).token);
    plant = await seedPlant(api, 2);
  });
  afterAll(async () => {
    for (const c of clients) c.end(true);
    await t.close();
  });

  it('takes QoS 1 JSON from a device logged in with its token; the PUBACK means durable', async () => {
    const m1 = plant.things[0]!;
    const client = await connect(port, m1.token);
    clients.push(client);
    const now = t.clock.now();
    await client.publishAsync(
      'v1/devices/me/telemetry',
      JSON.stringify({ ts: now - 1000, values: { P: 42, RUN: 1 } }),
      { qos: 1 },
    );
    // Acknowledged: already in the store, no waiting.
    expect(t.app.telemetry.latest([{ thingId: m1.id, metric: 'P' }])).toEqual([
      { thingId: m1.id, metric: 'P', ts: now - 1000, value: 42 },
    ]);
    await client.publishAsync(
      `kilowatch/things/${m1.identifier}/telemetry`,
      JSON.stringify([
        { ts: Math.floor(now / 1000) - 5, values: { EP: 10 } },
        { ts: now, values: { EP: 11, FW: 'v3', NOPE: 1 } },
      ]),
      { qos: 1 },
    );
    expect(await latest(m1.id)).toMatchObject({ P: 42, RUN: 1, EP: 11, FW: 'v3' });
    // A malformed payload is counted (and acknowledged: resending it would not help).
    await client.publishAsync('v1/devices/me/telemetry', 'not json', { qos: 1 });
    const stats = (await api.get('/api/telemetry/stats')).body.data;
    expect(stats.mqtt).toEqual({ mode: 'broker', port, connected: true, clients: 1 });
    expect(stats.bySource.mqtt).toBe(7);
    expect(stats.rejected).toEqual({ 'unknown metric': 1, 'bad message': 1 });
    expect(client.connected).toBe(true);
  });

  it('takes QoS 0 too', async () => {
    const m2 = plant.things[1]!;
    const client = await connect(port, m2.token);
    clients.push(client);
    await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ values: { P: 7 } }), { qos: 0 });
    await expect.poll(async () => (await latest(m2.id)).P, { timeout: 5_000 }).toBe(7);
  });

  it('refuses an unknown token at CONNECT', async () => {
    await expect(connect(port, 'wrong-token')).rejects.toThrow(/Bad username or password/i);
    await expect(connect(port, '')).rejects.toThrow();
  });

  it("closes the connection of a device publishing to another thing's topic, without PUBACK", async () => {
    const m1 = plant.things[0]!;
    const m2 = plant.things[1]!;
    const client = await connect(port, m1.token);
    clients.push(client);
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    const publish = client.publishAsync(
      `kilowatch/things/${m2.identifier}/telemetry`,
      JSON.stringify({ values: { P: 999 } }),
      {
        qos: 1,
      },
    );
    publish.catch(() => {});
    await closed;
    expect((await latest(m2.id)).P).not.toBe(999);
    expect((await api.get('/api/telemetry/stats')).body.data.rejected['bad topic']).toBe(1);
  });
});

describe.each(dialects())('MQTT ingest from an external broker (MQTT_URL) on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let plant: Plant;
  let broker: Aedes;
  let server: Server;
  let port: number;
  const subscriptions: string[] = [];

  beforeAll(async () => {
    // The "external" broker: Aedes has no shared subscriptions, so it strips $share/<group>/ (with
    // one member, the group gets every message, as on Mosquitto or EMQX).
    broker = await Aedes.createBroker({
      authorizeSubscribe: (_client, sub, done) => {
        subscriptions.push(sub.topic);
        const m = /^\$share\/[^/]+\/(.*)$/.exec(sub.topic);
        // In place: the persistent session stores the packet's subscription objects.
        if (m) sub.topic = m[1] as string;
        done(null, sub);
      },
    });
    server = createServer(broker.handle);
    port = await freePort();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    t = await buildTestApp(dialect, {
      env: { MQTT_URL: `mqtt://127.0.0.1:${port}`, MQTT_SHARE_GROUP: 'plant-a' },
    });
    api = apiAs(() => t.app, (await login(t.app)).token);
    plant = await seedPlant(api, 1);
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('subscribes with a shared subscription and writes what devices publish, by identifier', async () => {
    expect(subscriptions).toEqual(['$share/plant-a/kilowatch/things/+/telemetry']);
    const m1 = plant.things[0]!;
    const device = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0 });
    try {
      await device.publishAsync(
        `kilowatch/things/${m1.identifier}/telemetry`,
        JSON.stringify({ values: { P: 5.5 } }),
        { qos: 1 },
      );
      await device.publishAsync('kilowatch/things/NOBODY/telemetry', JSON.stringify({ values: { P: 1 } }), {
        qos: 1,
      });
      await expect
        .poll(() => t.app.telemetry.latest([{ thingId: m1.id, metric: 'P' }])[0]?.value, { timeout: 5000 })
        .toBe(5.5);
      await expect
        .poll(async () => (await api.get('/api/telemetry/stats')).body.data.rejected['unknown thing'])
        .toBe(1);
      const stats = (await api.get('/api/telemetry/stats')).body.data;
      expect(stats.mqtt).toMatchObject({ mode: 'subscriber', connected: true });
    } finally {
      await device.endAsync();
    }
  });
});
