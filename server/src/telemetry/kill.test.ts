import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DAY, HOUR } from '@kilowatch/contract/calendar';
import { afterAll, describe, expect, it } from 'vitest';
import { openTelemetryStore } from './index.ts';

const here = dirname(fileURLToPath(import.meta.url));
const SERIES = 20;
const PER_BATCH = 100;
let dir = '';
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs the writer until it acknowledged `acks` batches, SIGKILLs it, returns the acknowledged batches. */
function runAndKill(t0: number, acks: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(here, 'fixtures/kill-writer.ts'), dir, String(t0)],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const acked: number[] = [];
    let buffer = '';
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^ACK (\d+)$/.exec(line);
        if (m) acked.push(Number(m[1]));
      }
      if (acked.length >= acks && !child.killed) child.kill('SIGKILL'); // mid-stream: writes are in flight
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(acked);
      else reject(new Error(`writer exited (${code}) before the kill: ${stderr}`));
    });
  });
}

describe('a process killed mid-ingest', () => {
  it('loses no acknowledged point, and the rollups are consistent after recovery', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kw-kill-'));
    const t0 = Math.floor((Date.now() - 2 * DAY) / HOUR) * HOUR + 17_000;
    const acked = await runAndKill(t0, 40);
    expect(acked.length).toBeGreaterThanOrEqual(40);

    const store = await openTelemetryStore({
      dataDir: dir,
      timeZone: 'Asia/Shanghai',
      retention: { rawDays: 90, minuteDays: 400, hourDays: 1830 },
    });
    try {
      const lastAcked = Math.max(...acked);
      for (let s = 1; s <= SERIES; s++) {
        const key = { thingId: s, metric: 'energy' };
        const stored = new Set(
          (await store.points(key, t0, t0 + 10 * DAY, 10_000_000)).map((p) => (p.ts - t0) / 1000),
        );
        for (const b of acked) {
          for (let j = 0; j < PER_BATCH; j++) {
            if (!stored.has(b * PER_BATCH + j))
              throw new Error(`series ${s}: acknowledged point ${b * PER_BATCH + j} lost`);
          }
        }
        // Latest values are reloaded from the store, at least as new as the last acknowledgement.
        expect(store.latest([key])[0]?.ts).toBeGreaterThanOrEqual(
          t0 + (lastAcked * PER_BATCH + PER_BATCH - 1) * 1000,
        );
      }
      expect(await store.checkRollups()).toEqual({ minute: 0, hour: 0, day: 0 });
      // The counter's consumption from the hour rollups equals the raw answer.
      const q = {
        series: [{ thingId: 1, metric: 'energy' }],
        start: t0,
        end: t0 + 2 * DAY,
        bucket: { widthMs: HOUR },
        aggregator: 'delta' as const,
      };
      expect((await store.bucketsAt(q, 'hour')).buckets).toEqual((await store.bucketsAt(q, 'raw')).buckets);
      // And it keeps working: a new write after recovery.
      await store.write([{ thingId: 1, metric: 'energy', ts: t0 + 3 * DAY, value: 1e9 }]);
      expect(store.latest([{ thingId: 1, metric: 'energy' }])[0]?.value).toBe(1e9);
    } finally {
      await store.close();
    }
  }, 60_000);
});
