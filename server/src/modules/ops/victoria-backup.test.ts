import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../ingest/testing.ts';
import { openTelemetryStore, type Point } from '../../telemetry/index.ts';

const run = promisify(execFile);
const BIN = process.env.VICTORIA_METRICS_BIN ?? '/usr/bin/victoria-metrics';
const TOOLS = join(BIN, '..');
const missing = [BIN, join(TOOLS, 'vmbackup'), join(TOOLS, 'vmrestore')].find((f) => !existsSync(f));
const RETENTION = { rawDays: 90, minuteDays: 400, hourDays: 1830 };

const scratch = mkdtempSync(join(tmpdir(), 'kw-vm-backup-'));
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

/** A single-node victoria-metrics on `dir`, answering /health; stop() waits for it to exit. */
async function startVictoria(dir: string) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    BIN,
    [
      `-storageDataPath=${dir}`,
      `-httpListenAddr=127.0.0.1:${port}`,
      '-retentionPeriod=100y',
      '-loggerLevel=ERROR',
    ],
    { stdio: 'ignore' },
  );
  running.add(child);
  for (let i = 0; ; i++) {
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 150 || child.exitCode !== null) throw new Error(`victoria-metrics on ${dir} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      running.delete(child);
    },
  };
}

describe.skipIf(missing !== undefined)('VictoriaMetrics backup and restore (docs/deploy.md)', () => {
  it('vmbackup of a running node, vmrestore into a fresh folder, every point found', async () => {
    const first = join(scratch, 'first');
    const vm = await startVictoria(first);
    let store = await openTelemetryStore({
      dataDir: scratch,
      timeZone: 'UTC',
      retention: RETENTION,
      url: vm.url,
    });
    const start = Date.now() - 6 * 3_600_000;
    const points: Point[] = [];
    for (let thing = 1; thing <= 3; thing++) {
      for (let i = 0; i < 2_000; i++)
        points.push({ thingId: thing, metric: 'EP', ts: start + i * 10_000, value: thing * 1e6 + i });
    }
    await store.write(points);
    await store.close();

    // The commands of docs/deploy.md: a snapshot of the running node copied to a folder.
    const backup = join(scratch, 'backup');
    await run(join(TOOLS, 'vmbackup'), [
      `-storageDataPath=${first}`,
      `-snapshot.createURL=${vm.url}/snapshot/create`,
      `-dst=fs://${backup}`,
      '-loggerLevel=ERROR',
    ]);
    await vm.stop();
    const restoredDir = join(scratch, 'restored');
    await run(join(TOOLS, 'vmrestore'), [
      `-src=fs://${backup}`,
      `-storageDataPath=${restoredDir}`,
      '-loggerLevel=ERROR',
    ]);

    const restored = await startVictoria(restoredDir);
    store = await openTelemetryStore({
      dataDir: scratch,
      timeZone: 'UTC',
      retention: RETENTION,
      url: restored.url,
    });
    try {
      for (let thing = 1; thing <= 3; thing++) {
        const found = await store.points(
          { thingId: thing, metric: 'EP' },
          start,
          start + 2_000 * 10_000,
          10_000,
        );
        expect(found.length).toBe(2_000);
        found.forEach((p, i) => {
          expect(p.ts).toBe(start + i * 10_000);
          expect(p.value).toBe(thing * 1e6 + i);
        });
      }
      expect(store.latest([{ thingId: 2, metric: 'EP' }])[0]?.value).toBe(2e6 + 1_999);
      // Readiness asks /health; a node that is gone is named in the answer.
      await store.ping();
    } finally {
      await store.close();
      await restored.stop();
    }
    await expect(store.ping()).rejects.toThrow(`VictoriaMetrics at ${restored.url} not reached`);
  }, 60_000);
});
