import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { lostPoints, meterServer, startServer } from '../../../test/server-process.ts';
import { buildApp } from '../../app.ts';
import { freePort } from '../../ingest/testing.ts';

const PER_BATCH = 50;
const STEP_MS = 100;
/** Batches per sender path at most: 600 × 5 s stays inside the hour before now that they cover. */
const MAX_BATCHES = 600;
const dir = mkdtempSync(join(tmpdir(), 'kw-ops-sigterm-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SIGTERM during ingest', () => {
  it('drains HTTP and MQTT, exits 0, and keeps every acknowledged point', async () => {
    const mqttPort = await freePort();
    const { env, config, port, things } = await meterServer(dir, ['H1', 'Q1'], {
      mqttPort,
      logLevel: 'info',
    });
    const [httpThing, mqttThing] = things as [{ id: number; token: string }, { id: number; token: string }];

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

    const app = await buildApp(config);
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
        const lost = lostPoints(byTs, batches, { t0, perBatch: PER_BATCH, stepMs: STEP_MS });
        expect(lost).toEqual([]);
      }
    } finally {
      await app.close();
    }
  }, 90_000);
});
