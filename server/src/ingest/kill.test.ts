import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, login } from '../../test/helpers.ts';
import { buildApp } from '../app.ts';
import { type Env, loadConfig } from '../config.ts';
import { apiAs } from '../modules/things/testing.ts';
import { freePort } from './testing.ts';

const here = dirname(fileURLToPath(import.meta.url));
const PER_BATCH = 50;
const STEP_MS = 100;
const dir = mkdtempSync(join(tmpdir(), 'kw-ingest-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts `tsx server/src/server.ts` and resolves once it listens. */
function startServer(env: Env): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(here, '../server.ts')], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes('listening on')) resolve(child);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${out}`)));
  });
}

describe('HTTP ingest across a SIGKILL', () => {
  it('keeps every acknowledged point', async () => {
    const port = await freePort();
    const env: Env = {
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: '0',
      SIMULATOR: 'off',
      LOG_LEVEL: 'silent',
      ADMIN_PASSWORD,
      PLANT_TIMEZONE: 'UTC',
      WEB_DIST: join(dir, 'no-web'),
    };
    const config = loadConfig(env);

    // A device to send as, created before the server starts.
    let app = await buildApp(config);
    const api = apiAs(() => app, (await login(app)).token);
    const category = (await api.post('/api/thing/categories', { name: '电表' })).body.data;
    await api.post(`/api/thing/categories/${category.id}/abilities`, {
      identifier: 'P',
      name: '功率',
      unit: 'kW',
    });
    const model = (await api.post('/api/thing/models', { categoryId: category.id, name: 'A' })).body.data;
    const thing = (await api.post('/api/thing/things', { identifier: 'K1', name: 'K1', modelId: model.id }))
      .body.data;
    const token = (await api.get(`/api/thing/things/${thing.id}/token`)).body.data.accessToken;
    await app.close();

    const child = await startServer(env);
    const t0 = Date.now() - 3_600_000;
    const acked: number[] = [];
    let next = 0;
    let killed = false;
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_c, signal) => resolve(signal)),
    );
    // Four senders in parallel, so writes are in flight when the kill comes.
    const sender = async () => {
      while (!killed) {
        const b = next++;
        const batch = Array.from({ length: PER_BATCH }, (_, j) => ({
          ts: t0 + (b * PER_BATCH + j) * STEP_MS,
          values: { P: b * PER_BATCH + j },
        }));
        try {
          const res = await fetch(`http://127.0.0.1:${port}/api/telemetry`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-device-token': token },
            body: JSON.stringify(batch),
          });
          if (
            res.status === 200 &&
            ((await res.json()) as { data: { accepted: number } }).data.accepted === PER_BATCH
          )
            acked.push(b);
          else if (!killed) throw new Error(`unexpected ${res.status}`);
        } catch (error) {
          if (!killed) throw error;
        }
        if (acked.length >= 40 && !killed) {
          killed = true;
          child.kill('SIGKILL');
        }
      }
    };
    await Promise.all([sender(), sender(), sender(), sender()]);
    expect(await exited).toBe('SIGKILL');
    expect(acked.length).toBeGreaterThanOrEqual(40);

    // Restart on the same data folder and read everything back through the query API.
    app = await buildApp(config);
    try {
      const reader = apiAs(() => app, (await login(app)).token);
      const res = await reader.post('/api/query/data', {
        resourceType: 'thing',
        resourceId: thing.id,
        metricIdentifier: 'P',
        startTime: t0,
        endTime: t0 + next * PER_BATCH * STEP_MS + 1,
        maxPoints: 20000,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const stored = new Map<number, number>(
        (res.body.data.result as { key: number; value: number }[]).map((p) => [p.key, p.value]),
      );
      const lost: number[] = [];
      for (const b of acked) {
        for (let j = 0; j < PER_BATCH; j++) {
          const i = b * PER_BATCH + j;
          if (stored.get(t0 + i * STEP_MS) !== i) lost.push(i);
        }
      }
      expect(lost).toEqual([]);
    } finally {
      await app.close();
    }
  }, 60_000);
});
