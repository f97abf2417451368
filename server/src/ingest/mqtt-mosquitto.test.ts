import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../test/helpers.ts';
import { type Api, apiAs } from '../modules/things/testing.ts';
import { freePort, type Plant, seedPlant } from './testing.ts';

/** Debian's `mosquitto` package: the MQTT 5 broker an MQTT 5 fleet connects to (MQTT_URL). */
const MOSQUITTO = '/usr/sbin/mosquitto';
const installed = existsSync(MOSQUITTO);
if (!installed) {
  console.warn(
    `SKIPPED: the MQTT 5 tests through Mosquitto need ${MOSQUITTO} (apt-get install -y mosquitto)`,
  );
}

const listening = async (port: number) => {
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = tcpConnect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) return;
    await sleep(50);
  }
  throw new Error(`mosquitto did not listen on ${port}`);
};

describe.skipIf(!installed).each(dialects())(
  'MQTT 5 and 3.1.1 devices through Mosquitto (MQTT_URL) on %s',
  (dialect) => {
    let t: TestApp;
    let api: Api;
    let plant: Plant;
    let port: number;
    let folder: string;
    let broker: ChildProcess;
    const clients: MqttClient[] = [];
    const device = async (protocolVersion: 4 | 5, options: IClientOptions = {}) => {
      const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
        protocolVersion,
        reconnectPeriod: 0,
        connectTimeout: 5000,
        ...options,
      });
      clients.push(client);
      return client;
    };
    const latestP = (thingId: number) => t.app.telemetry.latest([{ thingId, metric: 'P' }])[0]?.value;

    beforeAll(async () => {
      port = await freePort();
      folder = await mkdtemp(join(tmpdir(), 'kilowatch-mosquitto-'));
      const config = join(folder, 'mosquitto.conf');
      await writeFile(config, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\n`);
      broker = spawn(MOSQUITTO, ['-c', config], { stdio: 'ignore' });
      await listening(port);
      t = await buildTestApp(dialect, { env: { MQTT_URL: `mqtt://127.0.0.1:${port}` } });
      api = apiAs(() => t.app, (await login(t.app)).token);
      plant = await seedPlant(api, 2);
    });
    afterAll(async () => {
      for (const c of clients) c.end(true);
      await t?.close();
      broker?.kill();
      await rm(folder, { recursive: true, force: true });
    });

    it('stores what MQTT 5 and MQTT 3.1.1 devices publish; PUBACK 0 from the broker', async () => {
      const [m1, m2] = [plant.things[0]!, plant.things[1]!];
      await expect
        .poll(async () => (await api.get('/api/telemetry/stats')).body.data.mqtt.connected)
        .toBe(true);
      const v5 = await device(5);
      const v4 = await device(4);
      const ack = await v5.publishAsync(
        `kilowatch/things/${m1.identifier}/telemetry`,
        JSON.stringify({ values: { P: 5.5 } }),
        { qos: 1, properties: { contentType: 'application/json' } },
      );
      expect((ack as { reasonCode?: number } | undefined)?.reasonCode ?? 0).toBe(0);
      await v4.publishAsync(
        `kilowatch/things/${m2.identifier}/telemetry`,
        JSON.stringify({ values: { P: 4.4 } }),
        {
          qos: 1,
        },
      );
      await expect.poll(() => [latestP(m1.id), latestP(m2.id)], { timeout: 5000 }).toEqual([5.5, 4.4]);
    });

    it("tells an MQTT 5 device what was rejected on its thing's errors topic", async () => {
      const m1 = plant.things[0]!;
      const v5 = await device(5);
      const notices: unknown[] = [];
      v5.on('message', (topic, payload) => notices.push({ topic, body: JSON.parse(payload.toString()) }));
      await v5.subscribeAsync(
        [`kilowatch/things/${m1.identifier}/errors`, 'kilowatch/things/NOBODY/errors'],
        {
          qos: 1,
        },
      );
      await v5.publishAsync(
        `kilowatch/things/${m1.identifier}/telemetry`,
        JSON.stringify({ values: { P: 1, NOPE: 2 } }),
        { qos: 1 },
      );
      await v5.publishAsync('kilowatch/things/NOBODY/telemetry', JSON.stringify({ values: { P: 1 } }), {
        qos: 1,
      });
      await expect.poll(() => notices.length, { timeout: 5000 }).toBe(2);
      expect(notices).toEqual([
        {
          topic: `kilowatch/things/${m1.identifier}/errors`,
          body: {
            topic: `kilowatch/things/${m1.identifier}/telemetry`,
            messageId: null,
            accepted: 1,
            rejected: [{ index: 0, metric: 'NOPE', reason: 'unknown metric' }],
          },
        },
        {
          topic: 'kilowatch/things/NOBODY/errors',
          body: {
            topic: 'kilowatch/things/NOBODY/telemetry',
            messageId: null,
            accepted: 0,
            rejected: [{ index: 0, metric: null, reason: 'unknown thing' }],
          },
        },
      ]);
    });
  },
);
