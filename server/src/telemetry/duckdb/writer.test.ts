import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { Point } from '../store.ts';
import { DuckDBTelemetryStore } from './store.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

it("holds DuckDB's memory level under a steady stream of commits (its scratch tables replaced, not emptied)", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kw-writer-'));
  dirs.push(dir);
  const t0 = Date.UTC(2026, 0, 5);
  const store = await DuckDBTelemetryStore.open({ dataDir: dir, timeZone: 'UTC', now: () => t0 + 3_600_000 });
  try {
    // Each write one commit of one point for each of 500 series: 500 rows of the commit's scratch table.
    const commit = (k: number) =>
      store.write(
        Array.from(
          { length: 500 },
          (_, i): Point => ({ thingId: i + 1, metric: 'p', ts: t0 + k * 1000, value: k }),
        ),
      );
    const inMemory = async () => {
      await store.checkpoint();
      return (await store.memory()).duckdb_in_memory_table ?? 0;
    };
    for (let k = 0; k < 50; k++) await commit(k);
    const before = await inMemory();
    for (let k = 50; k < 450; k++) await commit(k);
    // Emptied by DELETE, the scratch tables grew ≈ 30 KB a commit here (12 MB over these 400).
    expect((await inMemory()) - before).toBeLessThan(2 * 2 ** 20);
  } finally {
    await store.close();
  }
}, 120_000);
