/**
 * The demo plant: provisions it through the services it is handed (categories, models, things,
 * regions, bindings, the home metric configs), backfills its history into the telemetry store,
 * and hands the provisioned devices to the simulator, which publishes over MQTT only.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { DEFAULT_SEED, PlantGenerator, type Simulator, startSimulator } from '../simulator/index.ts';
import type { TelemetryStore } from '../telemetry/index.ts';
import { type HistoryLogger, type HistoryProgress, type HistoryRun, startHistory } from './history.ts';
import { type DemoServices, loadPlant, seedPlant } from './seed.ts';

export { backfill } from './backfill.ts';
export { HistoryProgress } from './history.ts';
export {
  type DemoServices,
  loadPlant,
  seedPlant,
} from './seed.ts';

interface DemoOptions {
  /** How many things a fresh plant gets (SIMULATOR_THINGS, 50–200). */
  things: number;
  /** The broker devices publish to, e.g. mqtt://127.0.0.1:1883. */
  mqttUrl: string;
  /** The plant's IANA zone (shifts and weekends are local). */
  timeZone: string;
  /** See PublisherOptions.topic. */
  topic?: 'own' | 'thing';
  seed?: number;
  intervalMs?: number;
  now?: () => number;
  log?: HistoryLogger;
  /** Writes the history before the first start in the background (demo/history.ts). */
  history?: {
    store: Pick<TelemetryStore, 'writeBatch'>;
    rawDays: number;
    dataDir: string;
    progress: HistoryProgress;
    days?: number;
    stepMs?: number;
  };
}

export interface DemoPlant extends Simulator {
  /** False when the plant was already there and nothing was written. */
  readonly seeded: boolean;
  /** The background history, when asked for. */
  readonly history: HistoryRun | undefined;
}

/**
 * Seeds the demo plant if needed, then starts the simulator on its devices: every simulated thing
 * publishes its telemetry over MQTT every 10 s until `stop()`.
 */
async function startDemo(services: DemoServices, options: DemoOptions): Promise<DemoPlant> {
  const seed = await seedPlant(services, { things: options.things });
  const things = await loadPlant(services.things);
  const simulator = startSimulator({ ...options, things });
  options.log?.info(
    { things: things.length, seeded: seed.seeded, broker: options.mqttUrl },
    'demo plant simulator started',
  );
  const history =
    options.history &&
    startHistory({
      ...options.history,
      things,
      generator: new PlantGenerator({ seed: options.seed ?? DEFAULT_SEED, timeZone: options.timeZone }),
      fresh: seed.seeded,
      now: options.now,
      log: options.log,
    });
  return {
    things,
    seeded: seed.seeded,
    history,
    stats: simulator.stats,
    connected: simulator.connected,
    stop: async () => {
      await history?.stop();
      await simulator.stop();
    },
  };
}

/**
 * What server.ts runs after listening when SIMULATOR=on: the demo plant publishing to the
 * in-process broker (or to MQTT_URL's broker on the things' own topics). Failures are logged, not
 * fatal: the server is useful without its demo plant. Undefined when it did not start.
 */
export async function startAppDemo(
  app: FastifyInstance,
  config: Config,
  services: DemoServices,
): Promise<DemoPlant | undefined> {
  const log = app.log.child({ module: 'simulator' });
  const external = config.ingest.mqttUrl;
  const port = app.ingest.mqtt.status().port;
  if (!external && !port) {
    log.warn(
      'the demo plant simulator needs an MQTT broker (MQTT_PORT is 0 and MQTT_URL unset): not started',
    );
    return undefined;
  }
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host;
  try {
    return await startDemo(services, {
      mqttUrl: external ?? `mqtt://${host.includes(':') ? `[${host}]` : host}:${port}`,
      topic: external ? 'thing' : 'own',
      things: config.simulator.things,
      timeZone: config.telemetry.timeZone,
      log,
      history: {
        store: app.telemetry,
        rawDays: config.telemetry.retention.rawDays,
        dataDir: config.dataDir,
        progress: app.demoHistory,
        days: config.simulator.historyDays,
        stepMs: config.simulator.historyStepMs,
      },
    });
  } catch (error) {
    log.error({ err: error }, 'the demo plant simulator could not start');
    return undefined;
  }
}
