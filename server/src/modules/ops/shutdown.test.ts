import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, login } from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { type Env, loadConfig } from '../../config.ts';
import { freePort } from '../../ingest/testing.ts';
import { apiAs } from '../things/testing.ts';

const here = dirname(fileURLToPath(import.meta.url));
const PER_BATCH = 50;
const STEP_MS = 100;
/** Batches per sender path at most: 600 × 5 s stays inside the hour before now that they cover. */
const MAX_BATCHES = 600;
const dir = mkdtempSync(join(tmpdir(), 'kw-ops-sigterm-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function startServer(env: Env): Promise<{ child: ChildProcess; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(here, '../../server.ts')], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes('listening on')) resolve({ child, output: () => out });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${out}`)));
  });
}

describe('SIGTERM during ingest', () => {
  it('drains HTTP and MQTT, exits 0, and keeps every acknowledged point', async () => {
    const [port, mqttPort] = [await freePort(), await freePort()];
    const env: Env = {
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      SIMULATOR: 'off',
      LOG_LEVEL: 'info',
      ADMIN_PASSWORD,
      PLANT_TIMEZONE: 'UTC',
      WEB_DIST: join(dir, 'no-web'),
    };
    const config = loadConfig(env);
    let app = await buildApp(config);
    const api = apiAs(() => app, (await login(app)).token);
    const category = (await api.post('/api/thing/categories', { name: '电表' })).body.data;
    await api.post(`/api/thing/categories/${category.id}/abilities`, {
      identifier: 'P',
      name: '功率',
      unit: 'kW',
    });
    const model = (await api.post('/api/thing/models', { categoryId: category.id, name: 'A' })).body.data;
    const made = async (identifier: string) => {
      const thing = (await api.post('/api/thing/things', { identifier, name: identifier, modelId: model.id }))
        .body.data;
      return {
        id: thing.id as number,
        token: (await api.get(`/api/thing/things/${thing.id}/token`)).body.data.accessToken as string,
      };
    };
    const httpThing = await made('H1');
    const mqttThing = await made('Q1');
    await app.close();

    const { child, output } = await startServer(env);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const t0 = Date.now() - 3_600_000;
    const batch = (b: number) =>
      Array.from({ length: PER_BATCH }, (_, j) => ({
        ts: t0 + (b * PER_BATCH + j) * STEP_MS,
        values: { P: b * PER_BATCH + j },
      }));
    const acked = { http: [] as number[], mqtt: [] as number[] };
    let signalled = false;
    const signalOnce = () => {
      if (signalled || acked.http.length + acked.mqtt.length < 40) return;
      signalled = true;
      child.kill('SIGTERM');
    };

    let nextHttp = 0;
    const httpSender = async () => {
      while (nextHttp < MAX_BATCHES) {
        const b = nextHttp++;
        try {
          const res = await fetch(`http://127.0.0.1:${port}/api/telemetry`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-device-token': httpThing.token },
            body: JSON.stringify(batch(b)),
          });
          if (
            res.status === 200 &&
            ((await res.json()) as { data: { accepted: number } }).data.accepted === PER_BATCH
          )
            acked.http.push(b);
          else if (!signalled) throw new Error(`unexpected ${res.status}`);
          else return;
        } catch (error) {
          if (!signalled) throw error;
          return;
        }
        signalOnce();
      }
    };

    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
      username: mqttThing.token,
      reconnectPeriod: 0,
    });
    client.on('error', () => {});
    let nextMqtt = 0;
    const mqttSender = async () => {
      while (client.connected && nextMqtt < MAX_BATCHES) {
        const b = nextMqtt++;
        try {
          // Resolves on the PUBACK, which the server sends once the points are durable.
          await client.publishAsync('v1/devices/me/telemetry', JSON.stringify(batch(b)), { qos: 1 });
          acked.mqtt.push(b);
        } catch (error) {
          if (!signalled) throw error;
          return;
        }
        signalOnce();
      }
    };

    await Promise.race([Promise.all([httpSender(), httpSender(), mqttSender(), mqttSender()]), exited]);
    const code = await exited;
    client.end(true);
    expect(code, output()).toBe(0);
    expect(output()).toContain('shut down cleanly');
    expect(acked.http.length + acked.mqtt.length).toBeGreaterThanOrEqual(40);
    expect(acked.mqtt.length).toBeGreaterThan(0);

    app = await buildApp(config);
    try {
      for (const [thing, batches] of [
        [httpThing, acked.http],
        [mqttThing, acked.mqtt],
      ] as const) {
        const stored = await app.telemetry.points(
          { thingId: thing.id, metric: 'P' },
          t0,
          t0 + MAX_BATCHES * PER_BATCH * STEP_MS,
          1_000_000,
        );
        const byTs = new Map(stored.map((p) => [p.ts, p.value]));
        const lost: number[] = [];
        for (const b of batches) {
          for (let j = 0; j < PER_BATCH; j++) {
            const i = b * PER_BATCH + j;
            if (byTs.get(t0 + i * STEP_MS) !== i) lost.push(i);
          }
        }
        expect(lost).toEqual([]);
      }
    } finally {
      await app.close();
    }
  }, 90_000);
});
