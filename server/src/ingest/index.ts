/**
 * Telemetry ingest (docs/ingest.md): MQTT (in-process broker or external shared subscription),
 * HTTP JSON and InfluxDB line protocol, all through one service that validates against the
 * thing's abilities and acknowledges only durable points.
 */
export { connectionRoutes } from './connection.ts';
export { INFLUX_COMPAT_VERSION, influxRoutes } from './influx.ts';
export { parseLineProtocol } from './line-protocol.ts';
export { createMqttIngest, type MqttIngest, type MqttOptions, OWN_TOPIC, thingTopic } from './mqtt.ts';
export { deviceToken, ingestRoutes } from './routes.ts';
export { createIngestService, type Device, type IngestDeps, type IngestService } from './service.ts';
export { REJECT_REASONS, type RejectReason } from './values.ts';
