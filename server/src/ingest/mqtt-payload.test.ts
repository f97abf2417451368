import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../test/helpers.ts';
import { type Api, apiAs } from '../modules/things/testing.ts';
import { freePort, type Plant, seedPlant } from './testing.ts';

/** The payload shapes of payload.ts reach MQTT devices too: ThingsBoard firmware publishes unchanged. */
describe.each(dialects())('ThingsBoard payloads over MQTT on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let plant: Plant;
  let client: MqttClient | undefined;

  beforeAll(async () => {
    const port = await freePort();
    t = await buildTestApp(dialect, { env: { MQTT_PORT: String(port), HOST: '127.0.0.1' } });
    api = apiAs(() => t.app, (await login(t.app)).token);
    plant = await seedPlant(api, 1);
    client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
      username: plant.things[0]!.token,
      password: 'x',
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });
  });
  afterAll(async () => {
    client?.end(true);
    await t.close();
  });

  it('stores flat key-values, {ts, values} and arrays of either published to v1/devices/me/telemetry', async () => {
    const m1 = plant.things[0]!;
    const now = t.clock.now();
    const publish = (payload: unknown) =>
      client?.publishAsync('v1/devices/me/telemetry', JSON.stringify(payload), { qos: 1 });
    await publish({ P: 13.5, EP: 5.2 });
    await publish([{ RUN: 1 }, { ts: now - 1000, values: { ON: true } }]);
    await publish([{ ts: now - 500, values: { FW: 'v1' } }]);
    const latest = t.app.telemetry.latest([
      { thingId: m1.id, metric: 'P' },
      { thingId: m1.id, metric: 'EP' },
      { thingId: m1.id, metric: 'RUN' },
      { thingId: m1.id, metric: 'ON' },
    ]);
    expect(latest).toEqual([
      { thingId: m1.id, metric: 'P', ts: now, value: 13.5 },
      { thingId: m1.id, metric: 'EP', ts: now, value: 5.2 },
      { thingId: m1.id, metric: 'RUN', ts: now, value: 1 },
      { thingId: m1.id, metric: 'ON', ts: now - 1000, value: 1 },
    ]);
    const stats = (await api.get('/api/telemetry/stats')).body.data;
    expect(stats.rejected).toEqual({});
    expect(stats.accepted).toBe(5);
  });
});
