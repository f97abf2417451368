/**
 * The set-up of the energy benches (statistics-bench.ts, export-bench.ts): the app in this process
 * with an admin's API client, kWh meters created through the API, and their counters written
 * through the store; and, for the benches that call the tariff service directly (tariff-bench.ts,
 * demand-bench.ts), a store and a migrated in-memory database without the app.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { migrateToLatest, openDatabase } from '../server/src/db/index.ts';
import { openTelemetryStore, type Point } from '../server/src/telemetry/index.ts';
import { Api, type InProcessApp, startInProcess, TIME_ZONE } from './harness.ts';

/** A telemetry store in a throwaway folder and a migrated SQLite database in memory; `close` removes both. */
export async function openStoreAndDatabase(name: string) {
  const dir = mkdtempSync(join(os.tmpdir(), `kilowatch-${name}-`));
  const store = await openTelemetryStore({
    dataDir: dir,
    timeZone: TIME_ZONE,
    retention: { rawDays: 90, minuteDays: 400, hourDays: 1830 },
  });
  const database = openDatabase({ kind: 'sqlite', file: ':memory:' });
  await migrateToLatest(database.db, database.dialect);
  const close = async () => {
    await store.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { store, database, close };
}

export interface BenchApp extends InProcessApp {
  api: Api;
}

/** The app listening on `port` (its log at warn), and the API logged in as the admin. */
export async function startBenchApp(options: { port: number; dataDir?: string }): Promise<BenchApp> {
  const running = await startInProcess({ ...options, logLevel: 'warn' });
  const api = new Api(running.base);
  await api.login();
  return { ...running, api };
}

/** A meter category with its cumulative kWh ability `EP`, and a model of it; answers the model's id. */
export async function createMeterModel(api: Api): Promise<number> {
  const category = await api.call<{ id: number }>('POST', '/api/thing/categories', { name: 'Bench meter' });
  await api.call('POST', `/api/thing/categories/${category.id}/abilities`, {
    identifier: 'EP',
    name: '正向有功电能',
    unit: 'kWh',
    cumulative: true,
  });
  const model = await api.call<{ id: number }>('POST', '/api/thing/models', {
    categoryId: category.id,
    name: 'M',
  });
  return model.id;
}

/**
 * Meters `M0001`… of `modelId`, numbered on from `first` (0-based), bound to `regionId` in
 * bindings of 1,000; answers their ids.
 */
export async function createMeters(
  api: Api,
  options: { modelId: number; count: number; first?: number; regionId: number },
): Promise<number[]> {
  const ids: number[] = [];
  for (let n = (options.first ?? 0) + 1; ids.length < options.count; n++) {
    const thing = await api.call<{ id: number }>('POST', '/api/thing/things', {
      identifier: `M${String(n).padStart(4, '0')}`,
      name: `Bench meter ${n}`,
      modelId: options.modelId,
    });
    ids.push(thing.id);
  }
  for (let i = 0; i < ids.length; i += 1000) {
    await api.call('POST', `/api/regions/${options.regionId}/bindings`, { thingIds: ids.slice(i, i + 1000) });
  }
  return ids;
}

/**
 * Writes an `EP` counter for each meter every `interval` ms in [from, to): the reading (2
 * decimals) integrates the load `kw(i, ts)` of meter `i` from `initial(i)`, and falls to 0 at
 * step `resetStep(i, steps)` when given. Time-major batches of about 10,000 points, up to 16
 * writes in flight. Answers how many points were written.
 */
export async function writeKwhCounters(
  app: InProcessApp['app'],
  ids: readonly number[],
  options: {
    from: number;
    to: number;
    interval: number;
    kw: (i: number, ts: number) => number;
    initial?: (i: number) => number;
    resetStep?: (i: number, steps: number) => number;
  },
): Promise<number> {
  const { from, interval } = options;
  const steps = Math.ceil((options.to - from) / interval);
  const counters = ids.map((_, i) => options.initial?.(i) ?? 1000);
  const resets = ids.map((_, i) => options.resetStep?.(i, steps) ?? -1);
  const chunk = Math.max(1, Math.floor(10_000 / ids.length));
  const pending: Promise<void>[] = [];
  let written = 0;
  for (let s = 0; s < steps; s += chunk) {
    const batch: Point[] = [];
    for (let k = s; k < Math.min(steps, s + chunk); k++) {
      const ts = from + k * interval;
      ids.forEach((thingId, i) => {
        counters[i] =
          k === resets[i] ? 0 : (counters[i] as number) + (options.kw(i, ts) * interval) / 3_600_000;
        batch.push({ thingId, metric: 'EP', ts, value: Math.round((counters[i] as number) * 100) / 100 });
      });
    }
    pending.push(app.telemetry.write(batch));
    written += batch.length;
    if (pending.length >= 16) await Promise.all(pending.splice(0));
  }
  await Promise.all(pending);
  return written;
}
