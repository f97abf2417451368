import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Services } from '../services.ts';
import { PlantGenerator } from './generator.ts';
import { type Logger, type Publisher, type PublisherStats, startPublisher } from './publisher.ts';
import { loadPlant, type SaveMetricConfigs, type SimThing, seedPlant } from './seed.ts';

export { type BackfillOptions, type BackfillResult, backfill } from './backfill.ts';
export {
  KINDS,
  type Kind,
  LOAD_PROFILES,
  type LoadProfile,
  METRICS,
  PlantGenerator,
  type SimThingSpec,
} from './generator.ts';
export {
  CATEGORIES,
  MARKER_CATEGORY,
  MAX_THINGS,
  MIN_THINGS,
  planThings,
  REGIONS,
  ROOT_REGION,
} from './plant.ts';
export { DEFAULT_INTERVAL_MS, TELEMETRY_TOPIC } from './publisher.ts';
export { HOME_CONFIGS, loadPlant, type SeedResult, type SimThing, seedPlant } from './seed.ts';

/** The generator's seed: live publishing and the backfill must use the same one. */
export const DEFAULT_SEED = 1;

/**
 * The metric-configs module's `saveConfigs` of the server's services, for the home metric configs
 * a fresh plant gets.
 */
export const metricConfigSaver =
  (services: Pick<Services, 'metricConfigs'>): SaveMetricConfigs =>
  (patch) =>
    services.metricConfigs.saveConfigs(patch);

export interface SimulatorOptions {
  /** The server's services: the plant is seeded and read through them. */
  services: Pick<Services, 'things' | 'regions' | 'metricConfigs'>;
  /** The broker devices publish to, e.g. mqtt://127.0.0.1:1883. */
  mqttUrl: string;
  /** How many things a fresh plant gets (SIMULATOR_THINGS, 50–200). */
  things: number;
  /** The plant's IANA zone (shifts and weekends are local). */
  timeZone: string;
  /** See PublisherOptions.topic. */
  topic?: 'own' | 'thing';
  seed?: number;
  intervalMs?: number;
  now?: () => number;
  log?: Logger;
}

export interface Simulator {
  readonly things: readonly SimThing[];
  readonly seeded: boolean;
  readonly stats: PublisherStats;
  connected(): number;
  stop(): Promise<void>;
}

/**
 * Seeds the demo plant if needed, then publishes every simulated thing's telemetry over MQTT
 * every 10 s until `stop()`.
 */
export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const seed = await seedPlant(options.services, {
    things: options.things,
    saveMetricConfigs: metricConfigSaver(options.services),
  });
  const things = await loadPlant(options.services);
  const generator = new PlantGenerator({ seed: options.seed ?? DEFAULT_SEED, timeZone: options.timeZone });
  const publisher: Publisher = startPublisher({
    things,
    generator,
    url: options.mqttUrl,
    topic: options.topic,
    intervalMs: options.intervalMs,
    now: options.now,
    log: options.log,
  });
  options.log?.info(
    { things: things.length, seeded: seed.seeded, broker: options.mqttUrl },
    'demo plant simulator started',
  );
  return {
    things,
    seeded: seed.seeded,
    stats: publisher.stats,
    connected: publisher.connected,
    stop: publisher.stop,
  };
}

/**
 * What server.ts runs after listening when SIMULATOR=on: the simulator publishing to the
 * in-process broker (or to MQTT_URL's broker on the things' own topics). Failures are logged, not
 * fatal: the server is useful without its demo plant. Undefined when it did not start.
 */
export async function startAppSimulator(
  app: FastifyInstance,
  config: Config,
): Promise<Simulator | undefined> {
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
    return await startSimulator({
      services: app.services,
      mqttUrl: external ?? `mqtt://${host.includes(':') ? `[${host}]` : host}:${port}`,
      topic: external ? 'thing' : 'own',
      things: config.simulator.things,
      timeZone: config.telemetry.timeZone,
      log,
    });
  } catch (error) {
    log.error({ err: error }, 'the demo plant simulator could not start');
    return undefined;
  }
}
