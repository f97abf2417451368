import { createServer, type Server } from 'node:net';
import { hostname } from 'node:os';
import type { IngestResult, IngestStats } from '@kilowatch/contract';
import {
  Aedes,
  type AedesPublishPacket,
  type AuthenticateError,
  type Client,
  type ConnectPacket,
  type PublishPacket,
  type Subscription,
} from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type IPublishPacket, type MqttClient } from 'mqtt';
import { topicMatches, unsupportedVersionConnack, watchPacketSizes } from './mqtt-wire.ts';
import type { Device, IngestService } from './service.ts';

/** Topics of the connected device itself (ThingsBoard-style: the token says who `me` is). */
const ME_PREFIX = 'v1/devices/me/';
/** The connected device's own telemetry (ThingsBoard-style, what most gateways can send). */
export const OWN_TOPIC = `${ME_PREFIX}telemetry`;
/** A thing's telemetry named by its identifier. */
const THING_TOPIC = /^kilowatch\/things\/([^/+#]+)\/telemetry$/;
export const thingTopic = (identifier: string) => `kilowatch/things/${identifier}/telemetry`;
/**
 * Where device telemetry is published inside the broker once written: no client may subscribe to
 * it (subscriptions are limited to the device's own prefixes), so nothing is routed or queued.
 */
const SINK_TOPIC = '$kilowatch/written';

export interface MqttOptions {
  /** MQTT_PORT: the in-process broker's port; 0 disables it. */
  port: number;
  /** MQTT_URL: an external broker to subscribe to instead of running one. */
  url: string | undefined;
  /** MQTT_SHARE_GROUP: the shared-subscription group of the replicas. */
  shareGroup: string;
  /** MQTT_MAX_PACKET: the in-process broker closes a connection announcing a larger packet. */
  maxPacket: number;
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

/** Writes one message's values; resolves once durable. Malformed payloads are counted, not retried. */
async function handleTelemetry(
  service: IngestService,
  device: Device,
  payload: Buffer | string,
): Promise<IngestResult> {
  // The same decoder as HTTP ingest, so both paths accept a byte-order mark and give the same reasons.
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  const outcome = await service.acceptBody(device, body, { kind: 'json' }, 'mqtt');
  if (outcome.kind === 'written') return outcome.result;
  const detail =
    outcome.kind === 'undecodable' && outcome.error === 'empty'
      ? 'payload is empty'
      : `payload is not JSON: ${outcome.kind === 'undecodable' ? outcome.detail : ''}`;
  service.refused('mqtt', device.identifier, 'bad message', detail);
  return { accepted: 0, rejected: [{ index: 0, metric: null, reason: 'bad message' }] };
}

/** Where a device learns what of its message was rejected (it may subscribe; QoS 0). */
const ERRORS_SUFFIX = 'errors';
/** Most rejections one error notice lists; the rest are counted in `omitted`. */
const NOTICE_MAX_REJECTED = 100;
/** MQTT 5 clients hear this in the CONNACK's reason string. */
const MQTT5_REFUSAL =
  'MQTT 5 is not supported by the built-in broker: connect with MQTT 3.1.1, or use an MQTT 5 broker with MQTT_URL';

/** The error notice of one published message (docs/ingest.md, "Rejections"). */
const errorNotice = (topic: string, messageId: number | undefined, result: IngestResult) => {
  const omitted = result.rejected.length - NOTICE_MAX_REJECTED;
  return JSON.stringify({
    topic,
    messageId: messageId ?? null,
    accepted: result.accepted,
    rejected: result.rejected.slice(0, NOTICE_MAX_REJECTED),
    ...(omitted > 0 ? { omitted } : {}),
  });
};

interface Session {
  token: string;
  device: Device;
  /** Topic filters granted to this connection (kept from Aedes' subscribe/unsubscribe events). */
  filters: Set<string>;
}

/**
 * The in-process broker is an ingest endpoint, not a message bus between devices: what a device
 * publishes is written and never routed to another client, and a device receives only what the
 * server addresses to it (its error notices), on the topics below its own `v1/devices/me/` or
 * `kilowatch/things/{identifier}/`.
 */
function inProcessBroker(service: IngestService, options: MqttOptions): MqttIngest {
  const { log } = options;
  const sessions = new WeakMap<Client, Session>();
  let broker: Aedes | undefined;
  let server: Server | undefined;
  let port: number | null = null;
  let mqtt5LoggedAt = 0;

  /** The device a topic names, when the client may publish to it. */
  const target = (session: { device: Device }, topic: string): Device | undefined => {
    if (topic === OWN_TOPIC) return session.device;
    const match = THING_TOPIC.exec(topic);
    return match?.[1] === session.device.identifier ? session.device : undefined;
  };

  /** The topic prefixes that mean this device, `me` first. */
  const ownPrefixes = (device: Device) => [ME_PREFIX, `kilowatch/things/${device.identifier}/`];

  /** Sends `payload` on `suffix` below each of the device's prefixes this connection subscribed to. */
  const tellDevice = (client: Client, session: Session, suffix: string, payload: string) =>
    Promise.all(
      ownPrefixes(session.device)
        .map((prefix) => `${prefix}${suffix}`)
        .filter((topic) => [...session.filters].some((filter) => topicMatches(filter, topic)))
        .map(
          (topic) =>
            new Promise<void>((resolve) =>
              // Straight to this connection, not through the broker's routing (which devices never get).
              client.publish(
                { cmd: 'publish', topic, payload: Buffer.from(payload), qos: 0, retain: false, dup: false },
                () => resolve(),
              ),
            ),
        ),
    );

  const preConnect = (
    client: Client,
    packet: ConnectPacket,
    done: (error: Error | null, success: boolean) => void,
  ) => {
    if (packet.protocolVersion !== 5) return done(null, true);
    service.failed('mqtt', null, 'MQTT 5 CONNECT refused (the built-in broker speaks MQTT 3.1.1)');
    if (Date.now() - mqtt5LoggedAt > 60_000) {
      mqtt5LoggedAt = Date.now();
      log.warn({ client: packet.clientId }, 'MQTT 5 client refused: the built-in broker speaks 3.1.1');
    }
    client.conn.write(unsupportedVersionConnack(MQTT5_REFUSAL), () =>
      done(new Error('MQTT 5 is not supported'), false),
    );
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
        // Client ids live in each thing's own namespace: another token with the same id gets its
        // own session (it neither takes this one over nor resumes its persistent state), while the
        // same thing reconnecting replaces its earlier session as MQTT says. Aedes registers (and
        // kicks a duplicate) by this id after authentication.
        (client as { id: string }).id = `${device.id}/${client.id}`;
        sessions.set(client, { token: username, device, filters: new Set() });
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
    if (!client || !session) return callback(new Error('not authenticated'));
    const device = target(session, packet.topic);
    if (!device) {
      service.refused('mqtt', session.device.identifier, 'bad topic', packet.topic.slice(0, 100));
      // An error closes the connection (MQTT 3.1.1 has no negative PUBACK): the device is misconfigured.
      return callback(new Error(`topic not allowed: ${packet.topic}`));
    }
    const topic = packet.topic;
    // Telemetry ends here: a retained copy would be replayed to later subscribers, and a routable
    // topic would hand it to any subscriber (and queue it for every offline persistent session).
    packet.retain = false;
    packet.topic = SINK_TOPIC;
    // The PUBACK of QoS 1 is written only after this callback: hold it until the write is durable
    // and the device was told what was rejected.
    service
      .deviceByToken(session.token, { cached: true })
      .then(async (current) => {
        if (current?.id !== device.id) throw new Error('the access token was replaced');
        const result = await handleTelemetry(service, device, packet.payload);
        if (result.rejected.length > 0) {
          await tellDevice(client, session, ERRORS_SUFFIX, errorNotice(topic, packet.messageId, result));
        }
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
    const allowed =
      session !== undefined &&
      ownPrefixes(session.device).some((prefix) => subscription.topic.startsWith(prefix));
    // A refused subscription is answered with a failure code, the connection stays.
    callback(null, allowed ? subscription : null);
  };

  /**
   * Only what the server sent to this very connection (tellDevice) reaches a device: Aedes marks
   * every packet a client published with its client id, the server's own carry none.
   */
  const authorizeForward = (_client: Client, packet: AedesPublishPacket) =>
    (packet as { clientId?: string }).clientId === undefined ? packet : null;

  return {
    async start() {
      const b = await Aedes.createBroker({
        preConnect,
        authenticate,
        authorizePublish,
        authorizeSubscribe,
        authorizeForward,
      });
      broker = b;
      b.on('clientError', (client, error) => {
        log.debug({ client: client.id, err: error.message }, 'MQTT client error');
      });
      b.on('subscribe', (subscriptions, client) => {
        const filters = sessions.get(client)?.filters;
        // Refused filters are listed too, with the failure code 128 as their QoS.
        for (const s of subscriptions) if ((s.qos as number) !== 128) filters?.add(s.topic);
      });
      b.on('unsubscribe', (topics, client) => {
        const filters = sessions.get(client)?.filters;
        for (const topic of topics) filters?.delete(topic);
      });
      const srv = createServer((socket) => {
        const client = b.handle(socket);
        watchPacketSizes(socket, options.maxPacket, (declared) => {
          const thing = sessions.get(client)?.device.identifier ?? null;
          service.refused(
            'mqtt',
            thing,
            'batch too large',
            `MQTT packet of ${declared} bytes, at most ${options.maxPacket} (MQTT_MAX_PACKET)`,
          );
        });
      });
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

  /**
   * Tells the devices of `identifier` what of a message was rejected, on the external broker (its
   * ACLs decide who may read it). QoS 0, like on the in-process broker; a failure is logged only.
   */
  async function tell(identifier: string, topic: string, result: IngestResult): Promise<void> {
    if (result.rejected.length === 0 || !client) return;
    const notice = `kilowatch/things/${identifier}/${ERRORS_SUFFIX}`;
    // The message id the server saw is the broker's, not the device's: the notice carries none.
    await client
      .publishAsync(notice, errorNotice(topic, undefined, result), { qos: 0 })
      .catch((error: unknown) => {
        log.warn({ err: String(error), topic: notice }, 'MQTT error notice not sent');
      });
  }

  async function onMessage(packet: IPublishPacket): Promise<void> {
    const match = THING_TOPIC.exec(packet.topic);
    if (!match?.[1]) {
      service.refused('mqtt', null, 'bad topic', packet.topic.slice(0, 100));
      return;
    }
    const device = await service.deviceByIdentifier(match[1]);
    if (!device) {
      service.refused('mqtt', match[1], 'unknown thing', `no thing with identifier ${match[1]}`);
      await tell(match[1], packet.topic, {
        accepted: 0,
        rejected: [{ index: 0, metric: null, reason: 'unknown thing' }],
      });
      return;
    }
    await tell(device.identifier, packet.topic, await handleTelemetry(service, device, packet.payload));
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
