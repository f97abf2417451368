/**
 * Telemetry ingest (docs/ingest.md): MQTT (in-process broker or external shared subscription),
 * HTTP JSON and InfluxDB line protocol, all through one service that validates against the
 * thing's abilities and acknowledges only durable points.
 */
export { connectionRoutes } from './connection.ts';
export { influxRoutes } from './influx.ts';

export { createMqttIngest, type MqttIngest } from './mqtt.ts';
export { ingestRoutes } from './routes.ts';
export { createIngestService, type IngestService } from './service.ts';
