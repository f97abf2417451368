import type { DeviceConnection, EffectiveAbility } from '@kilowatch/contract';

/** What the snippets are made of: where to send, as whom, and a message the thing will accept. */
export interface SnippetInput {
  connection: DeviceConnection;
  identifier: string;
  token: string;
  /** The message's values, e.g. `{ P: 12.5 }`. */
  values: Record<string, number | boolean | string>;
}

/** A shell word in single quotes (a token is base64url, but identifiers and hosts are the user's). */
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * A message a thing with these abilities accepts: up to three of its stored abilities with a
 * plausible value each (numbers 12.5, booleans true, enums their first option). Empty when it has
 * none, so the dialog can say that its data would be refused.
 */
export function sampleValues(
  abilities: readonly EffectiveAbility[],
): Record<string, number | boolean | string> {
  const values: Record<string, number | boolean | string> = {};
  for (const a of abilities) {
    if (Object.keys(values).length >= 3) break;
    if (a.dataType === 'number') values[a.identifier] = 12.5;
    else if (a.dataType === 'boolean') values[a.identifier] = true;
    else if (a.dataType === 'enum') values[a.identifier] = a.enumOptions[0]?.value ?? 0;
  }
  return values;
}

const message = (values: SnippetInput['values']) => JSON.stringify({ values });

/** The topic this thing publishes to: its own (token login) on our broker, its named topic on another. */
export const topicOf = (c: DeviceConnection, identifier: string) =>
  c.mqtt.ownTopic ?? c.mqtt.thingTopic.replace('{identifier}', identifier);

/**
 * `mosquitto_pub` for the in-process broker (token as username, any password) or an external
 * broker (its own credentials, the thing's topic); null when MQTT is off or reached only by
 * WebSocket, which mosquitto_pub cannot speak.
 */
export function mosquittoPub(input: SnippetInput): string | null {
  const { mqtt } = input.connection;
  if (mqtt.mode === 'off' || mqtt.host === null || mqtt.port === null) return null;
  if (mqtt.protocol !== 'mqtt' && mqtt.protocol !== 'mqtts') return null;
  const login =
    mqtt.mode === 'broker' ? `-u ${quote(input.token)} -P x` : '-u "$MQTT_USER" -P "$MQTT_PASSWORD"';
  const tls = mqtt.protocol === 'mqtts' ? ' --capath /etc/ssl/certs' : '';
  return [
    `mosquitto_pub -h ${quote(mqtt.host)} -p ${mqtt.port}${tls} -q 1 \\`,
    `  ${login} \\`,
    `  -t ${quote(topicOf(input.connection, input.identifier))} \\`,
    `  -m ${quote(message(input.values))}`,
  ].join('\n');
}

/** `curl` to POST /api/telemetry with the device token. */
export function curlJson(input: SnippetInput): string {
  const { http } = input.connection;
  return [
    `curl -sS ${quote(`${http.baseUrl}${http.telemetryPath}`)} \\`,
    `  -H ${quote(`x-Device-Token: ${input.token}`)} \\`,
    `  -H 'content-type: application/json' \\`,
    `  -d ${quote(message(input.values))}`,
  ].join('\n');
}

/**
 * `curl` to ThingsBoard's HTTP device API: the token in the path and the values flat, as devices
 * and gateways set up for ThingsBoard send them (only the host changes).
 */
export function curlThingsboard(input: SnippetInput): string {
  const { http } = input.connection;
  return [
    `curl -sS ${quote(`${http.baseUrl}${http.thingsboardPath.replace('{token}', input.token)}`)} \\`,
    `  -H 'content-type: application/json' \\`,
    `  -d ${quote(JSON.stringify(input.values))}`,
  ].join('\n');
}

/** A line-protocol field key: commas, equals signs and spaces are escaped. */
const fieldKey = (key: string) => key.replace(/[,= ]/g, '\\$&');
/** Numbers and booleans as they are; text as a quoted string field. */
const fieldValue = (value: number | boolean | string) =>
  typeof value === 'string' ? `"${value.replace(/["\\]/g, '\\$&')}"` : String(value);

/**
 * `curl` to the InfluxDB 1.x write API, logged in the way 1.x clients are (any user name, the token
 * as password); the database and the measurement are ignored, each field is an ability.
 */
export function curlInfluxV1(input: SnippetInput): string {
  const { http } = input.connection;
  const fields = Object.entries(input.values)
    .map(([key, value]) => `${fieldKey(key)}=${fieldValue(value)}`)
    .join(',');
  return [
    `curl -sS ${quote(`${http.baseUrl}${http.lineProtocolV1Path}?db=kilowatch`)} \\`,
    `  -u ${quote(`kilowatch:${input.token}`)} \\`,
    `  --data-binary ${quote(`kilowatch ${fields}`)}`,
  ].join('\n');
}

/** Telegraf's InfluxDB v2 output pointed at /api/v2/write (fields named after the abilities). */
export function telegrafOutput(input: SnippetInput): string {
  const fields = Object.keys(input.values);
  return [
    '[[outputs.influxdb_v2]]',
    `  urls = [${JSON.stringify(input.connection.http.baseUrl)}]`,
    `  token = ${JSON.stringify(input.token)}`,
    '  organization = "kilowatch"  # ignored',
    '  bucket = "kilowatch"        # ignored',
    `  # Every field becomes the ability of the same name${fields.length ? ` (${fields.join(', ')})` : ''}.`,
  ].join('\n');
}
