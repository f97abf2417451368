/**
 * `npm run backfill -- --days 7 [--things 120] [--step 10] [--seed 1]`: generates the demo plant's
 * history up to now and writes it straight into DATA_DIR/telemetry.duckdb (docs/demo-plant.md).
 * Run it while no server holds the store; the plant is seeded first when it is not there yet.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { createSingleCluster } from '../cluster/index.ts';
import { ConfigError, embeddedStoreOptions, loadConfig } from '../config.ts';
import { migrateToLatest, openDatabase } from '../db/index.ts';
import { createMemoryLive } from '../live/index.ts';
import { buildServices } from '../services.ts';
import { DEFAULT_SEED, PlantGenerator } from '../simulator/index.ts';
import { type OpenedTelemetryStore, openTelemetryStore } from '../telemetry/index.ts';
import { backfill, type DemoServices, loadPlant, seedPlant } from './index.ts';

const DAY = 86_400_000;
const USAGE = `Usage: npm run backfill -- [--days N] [--things N] [--step S] [--seed N]

  --days N     days of history up to now (default 7; at most RETENTION_RAW_DAYS)
  --things N   only the first N simulated things (default: all of them)
  --step S     seconds between samples (default 10, like the live simulator)
  --seed N     generator seed (default ${DEFAULT_SEED}; live data uses ${DEFAULT_SEED})

Uses DATA_DIR, DATABASE_URL, PLANT_TIMEZONE and SIMULATOR_THINGS like the server. Stop the server
first: it holds the telemetry store while it runs.`;

const fail = (message: string, code = 1): never => {
  console.error(message);
  process.exit(code);
};

const positive = (name: string, raw: string | undefined, fallback: number, max: number): number => {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > max)
    fail(`--${name} must be a whole number from 1 to ${max}`);
  return value;
};

const { values: args } = (() => {
  try {
    return parseArgs({
      options: {
        days: { type: 'string' },
        things: { type: 'string' },
        step: { type: 'string' },
        seed: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${USAGE}`);
  }
})();
if (args.help) {
  console.info(USAGE);
  process.exit(0);
}

const config = (() => {
  try {
    return loadConfig(process.env);
  } catch (error) {
    return fail(error instanceof ConfigError ? `Configuration error: ${error.message}` : String(error));
  }
})();
const days = positive('days', args.days, 7, 36_500);
const limit = args.things === undefined ? undefined : positive('things', args.things, 0, 100_000);
const stepMs = positive('step', args.step, 10, 86_400) * 1000;
const seed = args.seed === undefined ? DEFAULT_SEED : positive('seed', args.seed, DEFAULT_SEED, 2 ** 31 - 1);
if (days > config.telemetry.retention.rawDays) {
  fail(
    `--days ${days} is more than the raw retention (RETENTION_RAW_DAYS=${config.telemetry.retention.rawDays}): older points would be refused`,
  );
}

const storeFile = join(config.dataDir, 'telemetry.duckdb');
async function openStore(): Promise<OpenedTelemetryStore> {
  try {
    return await openTelemetryStore(embeddedStoreOptions(config));
  } catch (error) {
    const message = (error as Error).message;
    if (/lock/i.test(message)) {
      const holder = /PID (\d+)/.exec(message)?.[1];
      return fail(
        `The telemetry store ${storeFile} is in use by another process${holder ? ` (PID ${holder})` : ''}, ` +
          'most likely a running Kilowatch server. Stop the server, run the backfill, then start it again.',
        2,
      );
    }
    return fail(`Could not open the telemetry store ${storeFile}: ${message}`);
  }
}
const store = await openStore();

const database = openDatabase(config.database);
try {
  await migrateToLatest(database.db, database.dialect);
  // The server's own logger settings, without a server: only a failing live listener would log.
  const { log } = Fastify({ logger: { level: config.logLevel } });
  const {
    things: thingsService,
    regions,
    metricConfigs,
    alarms,
    diagrams,
    dashboard,
  } = buildServices({
    config,
    database,
    store,
    live: createMemoryLive((error) => log.error({ err: error }, 'live listener failed')),
    // A command run before the servers start: no replica to tell, no alarm partition to hold.
    cluster: createSingleCluster(),
    now: Date.now,
    log,
  });
  const services: DemoServices = {
    things: thingsService,
    regions,
    saveConfigs: (patch) => metricConfigs.saveConfigs(patch),
    alarms,
    diagrams,
    dashboard,
  };
  const seeded = await seedPlant(services, { things: config.simulator.things });
  if (seeded.seeded) console.info(`Seeded the demo plant: ${seeded.things} things.`);
  const things = await loadPlant(services.things, { limit });
  if (things.length === 0) {
    fail('No simulated things found (the 数据来源=模拟器 things of the demo plant were deleted?).');
  }

  const end = Math.floor(Date.now() / stepMs) * stepMs;
  const start = Math.max(end - days * DAY, store.writableFrom(Date.now()));
  console.info(
    `Backfilling ${things.length} things over ${days} day(s) at ${stepMs / 1000} s steps ` +
      `(${new Date(start).toISOString()} → ${new Date(end).toISOString()}, ${config.telemetry.timeZone})…`,
  );
  let lastReport = performance.now();
  const result = await backfill({
    store,
    things,
    generator: new PlantGenerator({ seed, timeZone: config.telemetry.timeZone }),
    start,
    end,
    stepMs,
    onProgress: ({ points, ts }) => {
      if (performance.now() - lastReport < 5000) return;
      lastReport = performance.now();
      const done = ((ts - start) / (end - start)) * 100;
      console.info(`  ${points.toLocaleString('en')} points, ${done.toFixed(0)} %`);
    },
  });
  const seconds = result.ms / 1000;
  console.info(
    `Wrote ${result.points.toLocaleString('en')} points in ${seconds.toFixed(1)} s ` +
      `(${Math.round(result.points / seconds).toLocaleString('en')} points/s); ` +
      `${result.silentSamples.toLocaleString('en')} samples left out as simulated gaps.`,
  );
} catch (error) {
  console.error(`Backfill failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await store.close();
  await database.close();
}
