import { createServer, type Server } from 'node:net';
import { hostname } from 'node:os';
import type { IngestStats } from '@kilowatch/contract';
import { Aedes, type AuthenticateError, type Client, type PublishPacket, type Subscription } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type IPublishPacket, type MqttClient } from 'mqtt';
import type { Device, IngestService } from './service.ts';

/** The connected device's own telemetry (ThingsBoard-style, what most gateways can send). */
export const OWN_TOPIC = 'v1/devices/me/telemetry';
/** A thing's telemetry named by its identifier. */
export const THING_TOPIC = /^kilowatch\/things\/([^/+#]+)\/telemetry$/;
export const thingTopic = (identifier: string) => `kilowatch/things/${identifier}/telemetry`;

export interface MqttOptions {
  /** MQTT_PORT: the in-process broker's port; 0 disables it. */
  port: number;
  /** MQTT_URL: an external broker to subscribe to instead of running one. */
  url: string | undefined;
  /** MQTT_SHARE_GROUP: the shared-subscription group of the replicas. */
  shareGroup: string;
  /** Listening host of the in-process broker. */
  host: string;
  /** Makes the external client's id stable per replica (its session survives a restart). */
  instance: string;
  log: FastifyBaseLogger;
}

export interface MqttIngest {
  start(): Promise<void>;
  stop(): Promise<void>;
  status(): IngestStats['mqtt'];
}

const authError = (message: string, returnCode: number): AuthenticateError =>
  Object.assign(new Error(message), { returnCode }) as AuthenticateError;

/**
 * MQTT ingest: by default an in-process Aedes broker where each device logs in with its access
 * token as the username; with MQTT_URL a client of an external broker on a shared subscription.
 * Either way a QoS 1 message is acknowledged (PUBACK) only after its points are durable.
 */
export function createMqttIngest(service: IngestService, options: MqttOptions): MqttIngest {
  if (options.url) return externalSubscriber(service, options);
  if (options.port === 0) {
    return {
      start: async () => {},
      stop: async () => {},
      status: () => ({ mode: 'off', port: null, connected: false, clients: 0 }),
    };
  }
  return inProcessBroker(service, options);
}

/** Parses a payload; undefined when it is not JSON. */
const parseJson = (payload: Buffer | string): unknown => {
  try {
    return JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8'));
  } catch {
    return undefined;
  }
};

/** Writes one message's values; resolves once durable. Malformed payloads are counted, not retried. */
async function handleTelemetry(service: IngestService, device: Device, payload: Buffer | string) {
  const json = parseJson(payload);
  if (json === undefined) {
    service.refused('mqtt', device.identifier, 'bad message', 'payload is not JSON');
    return;
  }
  await service.accept(device, service.fromJson(json), 'mqtt');
}

function inProcessBroker(service: IngestService, options: MqttOptions): MqttIngest {
  const { log } = options;
  const sessions = new WeakMap<Client, { token: string; device: Device }>();
  let broker: Aedes | undefined;
  let server: Server | undefined;
  let port: number | null = null;

  /** The device a topic names, when the client may publish to it. */
  const target = (session: { device: Device }, topic: string): Device | undefined => {
    if (topic === OWN_TOPIC) return session.device;
    const match = THING_TOPIC.exec(topic);
    return match?.[1] === session.device.identifier ? session.device : undefined;
  };

  const authenticate = (
    client: Client,
    username: Readonly<string | undefined>,
    _password: Readonly<Buffer | undefined>,
    done: (error: AuthenticateError | null, success: boolean | null) => void,
  ) => {
    if (!username) return done(authError('the username must be the device access token', 4), null);
    service.deviceByToken(username).then(
      (device) => {
        if (!device) {
          service.refused('mqtt', null, 'unknown thing', 'CONNECT with an unknown access token');
          return done(authError('unknown access token', 4), null);
        }
        sessions.set(client, { token: username, device });
        done(null, true);
      },
      (error: unknown) => {
        log.error({ err: error }, 'MQTT authentication failed');
        done(authError('server unavailable', 3), null);
      },
    );
  };

  const authorizePublish = (
    client: Client | null,
    packet: PublishPacket,
    callback: (error?: Error | null) => void,
  ) => {
    const session = client ? sessions.get(client) : undefined;
    if (!session) return callback(new Error('not authenticated'));
    const device = target(session, packet.topic);
    if (!device) {
      service.refused('mqtt', session.device.identifier, 'bad topic', packet.topic.slice(0, 100));
      // An error closes the connection (MQTT 3.1.1 has no negative PUBACK): the device is misconfigured.
      return callback(new Error(`topic not allowed: ${packet.topic}`));
    }
    // The PUBACK of QoS 1 is written only after this callback: hold it until the write is durable.
    service
      .deviceByToken(session.token, { cached: true })
      .then(async (current) => {
        if (current?.id !== device.id) throw new Error('the access token was replaced');
        await handleTelemetry(service, device, packet.payload);
      })
      .then(
        () => callback(null),
        (error: unknown) => {
          service.failed('mqtt', device.identifier, `not acknowledged: ${String(error)}`);
          callback(error instanceof Error ? error : new Error(String(error)));
        },
      );
  };

  const authorizeSubscribe = (
    client: Client,
    subscription: Subscription,
    callback: (error: Error | null, subscription?: Subscription | null) => void,
  ) => {
    const session = sessions.get(client);
    const own = session && `kilowatch/things/${session.device.identifier}/`;
    const allowed =
      session !== undefined &&
      (subscription.topic.startsWith('v1/devices/me/') ||
        (own !== undefined && subscription.topic.startsWith(own)));
    // A refused subscription is answered with a failure code, the connection stays.
    callback(null, allowed ? subscription : null);
  };

  return {
    async start() {
      broker = await Aedes.createBroker({ authenticate, authorizePublish, authorizeSubscribe });
      broker.on('clientError', (client, error) => {
        log.debug({ client: client.id, err: error.message }, 'MQTT client error');
      });
      const srv = createServer((socket) => broker?.handle(socket));
      server = srv;
      await new Promise<void>((resolve, reject) => {
        srv.once('error', reject);
        srv.listen(options.port, options.host, () => {
          srv.off('error', reject);
          resolve();
        });
      });
      const address = srv.address();
      port = typeof address === 'object' && address ? address.port : options.port;
      log.info({ port }, 'MQTT broker listening');
    },
    async stop() {
      const b = broker;
      const s = server;
      broker = undefined;
      server = undefined;
      if (b) await new Promise<void>((resolve) => b.close(() => resolve()));
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    status: () => ({
      mode: 'broker',
      port,
      connected: broker !== undefined,
      clients: broker?.connectedClients ?? 0,
    }),
  };
}

function externalSubscriber(service: IngestService, options: MqttOptions): MqttIngest {
  const { log } = options;
  const topic = `$share/${options.shareGroup}/kilowatch/things/+/telemetry`;
  let client: MqttClient | undefined;

  async function onMessage(packet: IPublishPacket): Promise<void> {
    const match = THING_TOPIC.exec(packet.topic);
    if (!match?.[1]) {
      service.refused('mqtt', null, 'bad topic', packet.topic.slice(0, 100));
      return;
    }
    const device = await service.deviceByIdentifier(match[1]);
    if (!device) {
      service.refused('mqtt', match[1], 'unknown thing', `no thing with identifier ${match[1]}`);
      return;
    }
    await handleTelemetry(service, device, packet.payload);
  }

  return {
    async start() {
      const c = mqtt.connect(options.url as string, {
        // A stable id and a persistent session: QoS 1 messages not yet acknowledged when this
        // replica stops are redelivered when it comes back.
        clientId: `kilowatch-${options.shareGroup}-${hostname()}-${options.instance}`.slice(0, 64),
        clean: false,
        reconnectPeriod: 2000,
        connectTimeout: 10_000,
      });
      client = c;
      // mqtt.js sends the PUBACK of a QoS 1 message after handleMessage's callback: hold it until
      // the points are durable. Messages are handled one at a time per connection.
      c.handleMessage = (packet, callback) => {
        if (packet.qos === 0) {
          onMessage(packet).catch((error: unknown) => service.failed('mqtt', null, String(error)));
          return callback();
        }
        onMessage(packet).then(
          () => callback(),
          (error: unknown) => {
            service.failed('mqtt', null, `not acknowledged: ${String(error)}`);
            callback(error instanceof Error ? error : new Error(String(error)));
          },
        );
      };
      c.on('error', (error) => log.warn({ err: error.message }, 'MQTT subscriber error'));
      const subscribed = new Promise<void>((resolve) => {
        c.on('connect', () => {
          c.subscribe(topic, { qos: 1 }, (error) => {
            if (error) log.error({ err: error.message, topic }, 'MQTT subscription failed');
            else {
              log.info({ topic }, 'MQTT subscribed');
              resolve();
            }
          });
        });
      });
      const timeout = new Promise<'timeout'>((resolve) => setTimeout(resolve, 5000, 'timeout').unref());
      if ((await Promise.race([subscribed, timeout])) === 'timeout') {
        log.warn(
          { url: options.url?.replace(/\/\/[^@/]*@/, '//***@') },
          'MQTT broker not reached yet; retrying',
        );
      }
    },
    async stop() {
      const c = client;
      client = undefined;
      if (c) await c.endAsync();
    },
    status: () => ({ mode: 'subscriber', port: null, connected: client?.connected ?? false, clients: 0 }),
  };
}
