/**
 * The demo plant's gateway: it animates simulated devices and publishes their telemetry over MQTT,
 * nothing else. What it simulates (ids, tokens, kinds) comes in as data from its caller
 * (`server/src/demo/`), so it reads no database and writes no store (docs/architecture.md).
 */
import { PlantGenerator } from './generator.ts';
import {
  type Logger,
  type Publisher,
  type PublisherStats,
  type SimThing,
  startPublisher,
} from './publisher.ts';

export { PlantGenerator } from './generator.ts';
export { type Kind, METRICS, type SimThingSpec } from './kinds.ts';
export type { ThingModel } from './model.ts';
export {
  ATTR,
  attributesOf,
  CATEGORIES,
  type CategoryPlan,
  MARKER_CATEGORY,
  planThings,
  profileOfLabel,
  REGIONS,
  type RegionPlan,
  ROOT_REGION,
  SOURCE_VALUE,
  type ThingPlan,
} from './plant.ts';
export type { Logger, SimThing } from './publisher.ts';
export { HEATING_BASE, MOTOR_TEMP_LIMIT } from './shapes.ts';
export { supplyTopology } from './topology.ts';

/** The generator's seed: live publishing and the backfill must use the same one. */
export const DEFAULT_SEED = 1;

export interface SimulatorOptions {
  /** The devices to simulate, as provisioned by the caller. */
  things: readonly SimThing[];
  /** The broker devices publish to, e.g. mqtt://127.0.0.1:1883. */
  mqttUrl: string;
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
  readonly stats: PublisherStats;
  connected(): number;
  stop(): Promise<void>;
}

/** Publishes every given thing's telemetry over MQTT every 10 s until `stop()`. */
export function startSimulator(options: SimulatorOptions): Simulator {
  const generator = new PlantGenerator({ seed: options.seed ?? DEFAULT_SEED, timeZone: options.timeZone });
  const publisher: Publisher = startPublisher({
    things: options.things,
    generator,
    url: options.mqttUrl,
    topic: options.topic,
    intervalMs: options.intervalMs,
    now: options.now,
    log: options.log,
  });
  return {
    things: options.things,
    stats: publisher.stats,
    connected: publisher.connected,
    stop: publisher.stop,
  };
}
