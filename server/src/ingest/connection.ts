import { type DeviceConnection, telemetryConnection } from '@kilowatch/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { route } from '../plugins/route.ts';
import { type MqttIngest, OWN_TOPIC, thingTopic } from './mqtt.ts';

/** Listening on every interface says nothing about the name devices can reach the server by. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '']);
const DEFAULT_PORTS: Record<string, number> = { mqtt: 1883, mqtts: 8883, ws: 80, wss: 443 };
/** MQTT_URL accepts mqtt.js' aliases; devices know the usual names. */
const PROTOCOL_NAMES: Record<string, string> = { tcp: 'mqtt', ssl: 'mqtts' };

const withoutBrackets = (host: string) => host.replace(/^\[(.*)\]$/, '$1');

export interface ConnectionOptions {
  /** HOST: the address the server listens on. */
  listenHost: string;
  /** MQTT_URL: devices publish to that broker instead of ours. */
  mqttUrl: string | undefined;
  mqtt: Pick<MqttIngest, 'status'>;
}

/**
 * Where devices send their data, as seen from the browser asking: the host is the one the browser
 * reached the server by (behind TRUST_PROXY, the forwarded one) unless the server listens on one
 * address only; an external broker's host and port come from MQTT_URL (its credentials never do).
 */
export function deviceConnection(request: FastifyRequest, options: ConnectionOptions): DeviceConnection {
  const browserHost = withoutBrackets(request.hostname);
  const host = WILDCARD_HOSTS.has(options.listenHost) ? browserHost : options.listenHost;
  const http = {
    baseUrl: `${request.protocol}://${request.host}`,
    telemetryPath: '/api/telemetry',
    lineProtocolPath: '/api/v2/write',
    thingsboardPath: '/api/v1/{token}/telemetry',
    lineProtocolV1Path: '/write',
  };
  const thing = thingTopic('{identifier}');
  if (options.mqttUrl) {
    const url = new URL(options.mqttUrl);
    const scheme = url.protocol.replace(/:$/, '');
    const protocol = PROTOCOL_NAMES[scheme] ?? scheme;
    return {
      mqtt: {
        mode: 'external',
        host: withoutBrackets(url.hostname),
        port: url.port ? Number(url.port) : (DEFAULT_PORTS[protocol] ?? null),
        protocol,
        ownTopic: null,
        thingTopic: thing,
      },
      http,
    };
  }
  const status = options.mqtt.status();
  if (status.mode !== 'broker' || status.port === null) {
    return {
      mqtt: { mode: 'off', host: null, port: null, protocol: 'mqtt', ownTopic: null, thingTopic: thing },
      http,
    };
  }
  return {
    mqtt: {
      mode: 'broker',
      host,
      port: status.port,
      protocol: 'mqtt',
      ownTopic: OWN_TOPIC,
      thingTopic: thing,
    },
    http,
  };
}

/** GET /api/telemetry/connection: the facts the device token dialog turns into snippets. */
export const connectionRoutes: FastifyPluginAsync<ConnectionOptions> = async (app, options) => {
  route(app, telemetryConnection, { config: { resource: '/device_management/nodes' } }, async (request) =>
    deviceConnection(request, options),
  );
};
