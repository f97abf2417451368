import { type Static, Type } from 'typebox';
import { endpoint } from './endpoint.ts';

/**
 * Telemetry ingest (docs/ingest.md): what devices send over HTTP in every ThingsBoard shape and as
 * InfluxDB line protocol, what they are answered, the ingest counters and how devices connect.
 */

/** Ingest over HTTP: POST /api/telemetry (device token in `x-Device-Token` or Bearer). */
export const TelemetryMessage = Type.Object({
  /** ms, or 10-digit seconds; default: arrival time. */
  ts: Type.Optional(Type.Number()),
  values: Type.Record(Type.String(), Type.Union([Type.Number(), Type.Boolean(), Type.String()])),
});
/** ThingsBoard's flat key-values `{"P":13.5,"Ia":5.2}`: every key a metric, stamped on arrival. */
export const TelemetryFlat = Type.Record(
  Type.String(),
  Type.Union([Type.Number(), Type.Boolean(), Type.String()]),
);
/** Every shape ThingsBoard takes on v1/devices/me/telemetry: a message, flat values, or an array of either. */
export const TelemetryBatch = Type.Union([
  TelemetryMessage,
  TelemetryFlat,
  Type.Array(Type.Union([TelemetryMessage, TelemetryFlat]), { maxItems: 10000 }),
]);
export type TelemetryMessage = Static<typeof TelemetryMessage>;

export const IngestRejection = Type.Object({
  index: Type.Integer({ description: 'message index in the batch (or line number for line protocol)' }),
  metric: Type.Union([Type.String(), Type.Null()]),
  reason: Type.String(),
});
export const IngestResult = Type.Object({
  accepted: Type.Integer(),
  rejected: Type.Array(IngestRejection),
});
export type IngestResult = Static<typeof IngestResult>;

/** GET /api/telemetry/stats: ingest counters since the server started (all sources). */
export const IngestStats = Type.Object({
  /** When the counters started (server start), ms. */
  since: Type.Number(),
  /** Values received (each value of each message or line counts once). */
  received: Type.Integer(),
  accepted: Type.Integer(),
  /** Rejected values by reason ('unknown thing', 'unknown metric', 'bad value', 'bad timestamp', …). */
  rejected: Type.Record(Type.String(), Type.Integer()),
  /** Received values by source: mqtt, http, line. */
  bySource: Type.Record(Type.String(), Type.Integer()),
  lastError: Type.Union([
    Type.Object({
      at: Type.Number(),
      source: Type.String(),
      thing: Type.Union([Type.String(), Type.Null()]),
      message: Type.String(),
    }),
    Type.Null(),
  ]),
  /** MQTT: 'broker' (in-process, with its port), 'subscriber' (external broker) or 'off'. */
  mqtt: Type.Object({
    mode: Type.Union([Type.Literal('broker'), Type.Literal('subscriber'), Type.Literal('off')]),
    port: Type.Union([Type.Integer(), Type.Null()]),
    connected: Type.Boolean(),
    clients: Type.Integer(),
  }),
});
export type IngestStats = Static<typeof IngestStats>;

/** POST /api/v2/write (InfluxDB v2 line protocol): query parameters; org and bucket are ignored. */
export const LineProtocolQuery = Type.Object({
  org: Type.Optional(Type.String()),
  bucket: Type.Optional(Type.String()),
  precision: Type.Optional(Type.Enum(['ns', 'us', 'ms', 's'])),
});

/** POST /write (InfluxDB 1.x write API, Telegraf outputs.influxdb): db, rp and u are accepted and ignored. */
export const InfluxV1WriteQuery = Type.Object({
  db: Type.Optional(Type.String()),
  rp: Type.Optional(Type.String()),
  precision: Type.Optional(Type.Enum(['n', 'ns', 'u', 'us', 'ms', 's', 'm', 'h'])),
  consistency: Type.Optional(Type.String()),
  u: Type.Optional(Type.String()),
  /** The device access token, when not sent as `Authorization: Token` or the basic-auth password. */
  p: Type.Optional(Type.String()),
});

/** InfluxDB 1.x clients read `error`; `code` and `message` as on every other error. */
export const InfluxV1ErrorBody = Type.Object({
  code: Type.String(),
  message: Type.String(),
  error: Type.Optional(Type.String()),
});

/** GET /health, InfluxDB 2.x's shape (what its clients and Telegraf read): `status` pass or fail. */
export const InfluxHealth = Type.Object({
  name: Type.String(),
  message: Type.String(),
  status: Type.Union([Type.Literal('pass'), Type.Literal('fail')]),
  checks: Type.Array(
    Type.Object({
      name: Type.String(),
      status: Type.Union([Type.Literal('pass'), Type.Literal('fail')]),
      message: Type.Optional(Type.String()),
    }),
  ),
  version: Type.String(),
  commit: Type.String(),
});
export type InfluxHealth = Static<typeof InfluxHealth>;

/**
 * GET /api/telemetry/connection: what a device needs to reach this server (the token dialog's
 * snippets). `broker`: the in-process broker, token as MQTT username; `external`: the broker of
 * MQTT_URL, which authenticates devices itself; `off`: HTTP only.
 */
export const DeviceConnection = Type.Object({
  mqtt: Type.Object({
    mode: Type.Enum(['broker', 'external', 'off']),
    /** Host name devices connect to; null when MQTT is off. */
    host: Type.Union([Type.String(), Type.Null()]),
    port: Type.Union([Type.Integer(), Type.Null()]),
    /** mqtt, mqtts, ws or wss. */
    protocol: Type.String(),
    /** The connected device's own topic (in-process broker only; null otherwise). */
    ownTopic: Type.Union([Type.String(), Type.Null()]),
    /** A thing's topic with `{identifier}` to fill in. */
    thingTopic: Type.String(),
  }),
  http: Type.Object({
    /** The server as the browser reached it, e.g. `http://plant.local:8080` (no trailing slash). */
    baseUrl: Type.String(),
    /** JSON ingest path (`POST`, device token in `x-Device-Token`). */
    telemetryPath: Type.String(),
    /** InfluxDB v2 line-protocol write path (`Authorization: Token …`). */
    lineProtocolPath: Type.String(),
    /** ThingsBoard's HTTP device API path (`POST`, JSON) with `{token}` to fill in. */
    thingsboardPath: Type.String(),
    /** InfluxDB 1.x line-protocol write path (the token as basic-auth password, `?p=` or `Token …`). */
    lineProtocolV1Path: Type.String(),
  }),
});
export type DeviceConnection = Static<typeof DeviceConnection>;

/** 400: the reason, and what was rejected value by value when the body could be read. */
export const IngestRejected = Type.Object({
  code: Type.String(),
  message: Type.String(),
  data: Type.Optional(IngestResult),
});

// ---- endpoints: device-facing /api routes and the console's ingest routes --------------------------

const tags = ['telemetry'];

const JSON_STATUSES =
  '200 once the accepted values are durable (rejected ones listed with their message index); 400 with the reason when the body is not JSON or every value was rejected (do not resend: it would be rejected again); 401 for an unknown token; 5xx only when the store failed (resend).';

/** A device's write; the body is checked value by value by the server, not by this schema. */
export const telemetryWrite = endpoint({
  method: 'POST',
  path: '/api/telemetry',
  body: TelemetryBatch,
  response: IngestResult,
  responses: { 400: IngestRejected },
  tags,
  summary: 'Write telemetry of the device whose access token is sent (JSON, any ThingsBoard shape)',
  description: `Token in \`x-Device-Token\` or \`Authorization: Bearer\`. Body: \`{"P":12.5}\`, \`{"ts":…,"values":{…}}\` or an array of either. Each value is checked on its own: bad ones are listed in \`rejected\` with their message index, the rest are written. ${JSON_STATUSES}`,
});

export const telemetryWriteByPathToken = endpoint({
  method: 'POST',
  path: '/api/v1/:token/telemetry',
  params: Type.Object({ token: Type.String() }),
  body: TelemetryBatch,
  response: IngestResult,
  responses: { 400: IngestRejected },
  tags,
  summary: "ThingsBoard's HTTP device API: telemetry with the device access token in the path",
  description: `What ThingsBoard devices and gateways send to \`/api/v1/$ACCESS_TOKEN/telemetry\`, unchanged. ${JSON_STATUSES}`,
});

export const lineProtocolWrite = endpoint({
  method: 'POST',
  path: '/api/v2/write',
  querystring: LineProtocolQuery,
  responses: { 204: Type.Null() },
  tags,
  summary: 'InfluxDB v2 line-protocol write (Telegraf outputs.influxdb_v2, Node-RED)',
  description:
    'Token: `Authorization: Token <device access token>`. Each field becomes the ability of the same identifier (or `measurement_field`); tags are ignored. 204 when every line was written; 400 `unable to parse` when no line parses, `partial write` when some values were rejected. `Content-Encoding: gzip` is accepted.',
});

export const telemetryStats = endpoint({
  method: 'GET',
  path: '/api/telemetry/stats',
  response: IngestStats,
  tags,
  summary: 'Ingest counters since start: received, accepted, rejected by reason, last error, MQTT state',
});

export const telemetryConnection = endpoint({
  method: 'GET',
  path: '/api/telemetry/connection',
  response: DeviceConnection,
  tags,
  summary: 'How devices reach this server: MQTT host, port and topics, HTTP ingest URLs',
});
