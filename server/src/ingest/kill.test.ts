import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { login } from '../../test/helpers.ts';
import { lostPoints, meterServer, startServer } from '../../test/server-process.ts';
import { buildApp } from '../app.ts';
import { apiAs } from '../modules/things/testing.ts';

const PER_BATCH = 50;
const STEP_MS = 100;
const dir = mkdtempSync(join(tmpdir(), 'kw-ingest-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('HTTP ingest across a SIGKILL', () => {
  it('keeps every acknowledged point', async () => {
    // A device to send as, created before the server starts.
    const { env, config, port, things } = await meterServer(dir, ['K1']);
    const [thing] = things as [{ id: number; token: string }];
    const token = thing.token;

    const { child } = await startServer(env);
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
    const app = await buildApp(config);
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
      const lost = lostPoints(stored, acked, { t0, perBatch: PER_BATCH, stepMs: STEP_MS });
      expect(lost).toEqual([]);
    } finally {
      await app.close();
    }
  }, 60_000);
});
