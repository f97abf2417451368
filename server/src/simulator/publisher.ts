import mqtt, { type MqttClient } from 'mqtt';
import type { PlantGenerator } from './generator.ts';
import type { SimThingSpec } from './kinds.ts';
import type { ThingModel } from './model.ts';

/** The topic a device publishes its telemetry on (ThingsBoard style: the token says who it is). */
const TELEMETRY_TOPIC = 'v1/devices/me/telemetry';
const DEFAULT_INTERVAL_MS = 10_000;

/**
 * A simulated device as its caller provisioned it: its thing id, its access token (the MQTT
 * username) and what the generator needs. The gateway gets this as data, never from the database.
 */
export interface SimThing extends SimThingSpec {
  id: number;
  name: string;
  accessToken: string;
}

export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface PublisherOptions {
  things: readonly SimThing[];
  generator: PlantGenerator;
  /** e.g. mqtt://127.0.0.1:1883 */
  url: string;
  /** Publishing period; ticks are aligned to multiples of it (ms since the epoch). */
  intervalMs?: number;
  now?: () => number;
  log?: Logger;
  /** Delay before a dropped connection is retried, ms (default 5000). */
  reconnectPeriodMs?: number;
  /**
   * Where a thing publishes: `own` (default) is v1/devices/me/telemetry on a broker that knows the
   * device by its token; `thing` is kilowatch/things/{identifier}/telemetry (external brokers).
   */
  topic?: 'own' | 'thing';
}

export interface PublisherStats {
  ticks: number;
  /** Messages handed to a connected client. */
  published: number;
  /** Acknowledged by the broker (QoS 1 PUBACK). */
  acknowledged: number;
  failed: number;
  /** Messages not sent because the thing's client was not connected at the tick. */
  skippedOffline: number;
  /** Messages not sent because the thing was silent (a simulated gap). */
  skippedSilent: number;
}

export interface Publisher {
  readonly stats: PublisherStats;
  /** Clients currently connected. */
  connected(): number;
  /** Publishes one tick at `ts` now (tests); the timer does this every interval. */
  tick(ts: number): void;
  stop(): Promise<void>;
}

interface Device {
  thing: SimThing;
  model: ThingModel;
  client: MqttClient;
  topic: string;
  lastError: string | undefined;
}

/**
 * Publishes every thing's values every interval over MQTT, one client per thing with its access
 * token as the username, QoS 1 — what a real device does. Clients reconnect on their own; a
 * thing whose client is down at a tick sends nothing for that tick (a gap, as a real device
 * without a buffer would).
 */
export function startPublisher(options: PublisherOptions): Publisher {
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const now = options.now ?? Date.now;
  const { generator, log } = options;
  const stats: PublisherStats = {
    ticks: 0,
    published: 0,
    acknowledged: 0,
    failed: 0,
    skippedOffline: 0,
    skippedSilent: 0,
  };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const devices: Device[] = options.things.map((thing) => {
    const client = mqtt.connect(options.url, {
      clientId: `kilowatch-sim-${thing.identifier}`,
      username: thing.accessToken,
      clean: true,
      keepalive: 60,
      reconnectPeriod: options.reconnectPeriodMs ?? 5000,
      connectTimeout: 10_000,
      queueQoSZero: false,
    });
    const topic =
      options.topic === 'thing' ? `kilowatch/things/${thing.identifier}/telemetry` : TELEMETRY_TOPIC;
    const device: Device = { thing, model: generator.model(thing), client, topic, lastError: undefined };
    client.on('connect', () => {
      if (device.lastError !== undefined) log?.info({ thing: thing.identifier }, 'simulator: reconnected');
      device.lastError = undefined;
    });
    client.on('error', (error) => {
      // Log each distinct failure once per device, not on every retry.
      if (error.message !== device.lastError) {
        log?.warn({ thing: thing.identifier, err: error.message }, 'simulator: MQTT connection failed');
      }
      device.lastError = error.message;
    });
    return device;
  });

  const tick = (ts: number) => {
    stats.ticks++;
    for (const device of devices) {
      if (!device.client.connected) {
        stats.skippedOffline++;
        continue;
      }
      const values = generator.values(device.model, ts);
      if (!values) {
        stats.skippedSilent++;
        continue;
      }
      if (device.thing.declared) {
        for (const metric of device.model.metrics)
          if (!device.thing.declared.includes(metric)) delete values[metric];
      }
      stats.published++;
      device.client.publish(device.topic, JSON.stringify({ ts, values }), { qos: 1 }, (error) => {
        if (error) stats.failed++;
        else stats.acknowledged++;
      });
    }
  };

  const schedule = () => {
    if (stopped) return;
    const t = now();
    const next = Math.floor(t / intervalMs) * intervalMs + intervalMs;
    timer = setTimeout(() => {
      timer = undefined;
      if (stopped) return;
      tick(next);
      schedule();
    }, next - t);
    timer.unref();
  };
  schedule();

  return {
    stats,
    connected: () => devices.filter((d) => d.client.connected).length,
    tick,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await Promise.all(
        devices.map(
          (d) =>
            new Promise<void>((resolve) => {
              // Wait for in-flight QoS 1 messages briefly, then force the socket closed.
              const force = setTimeout(() => d.client.end(true, () => resolve()), 2000);
              d.client.end(false, () => {
                clearTimeout(force);
                resolve();
              });
            }),
        ),
      );
    },
  };
}
