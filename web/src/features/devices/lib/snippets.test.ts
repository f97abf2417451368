import type { DeviceConnection, EffectiveAbility } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import {
  curlInfluxV1,
  curlJson,
  curlThingsboard,
  mosquittoPub,
  sampleValues,
  telegrafOutput,
  topicOf,
} from './snippets.ts';

const broker: DeviceConnection = {
  mqtt: {
    mode: 'broker',
    host: 'plant.local',
    port: 1883,
    protocol: 'mqtt',
    ownTopic: 'v1/devices/me/telemetry',
    thingTopic: 'kilowatch/things/{identifier}/telemetry',
  },
  http: {
    baseUrl: 'http://plant.local:8080',
    telemetryPath: '/api/telemetry',
    lineProtocolPath: '/api/v2/write',
    thingsboardPath: '/api/v1/{token}/telemetry',
    lineProtocolV1Path: '/write',
  },
};
const input = { connection: broker, identifier: 'Meter-01', token: 'tok_ABC-123', values: { P: 12.5 } };

const ability = (
  identifier: string,
  dataType: EffectiveAbility['dataType'],
  extra = {},
): EffectiveAbility => ({
  abilityId: 1,
  categoryId: 1,
  identifier,
  name: identifier,
  unit: '',
  dataType,
  aggregator: 'avg',
  cumulative: false,
  enumOptions: [],
  sort: 0,
  overridden: false,
  ...extra,
});

describe('device snippets', () => {
  it('mosquitto_pub logs in to our broker with the token and publishes to the own topic', () => {
    expect(mosquittoPub(input)).toBe(
      [
        "mosquitto_pub -h 'plant.local' -p 1883 -q 1 \\",
        "  -u 'tok_ABC-123' -P x \\",
        "  -t 'v1/devices/me/telemetry' \\",
        `  -m '{"values":{"P":12.5}}'`,
      ].join('\n'),
    );
  });

  it("uses an external broker's own login, TLS and the thing's topic; none over WebSocket or with MQTT off", () => {
    const external: DeviceConnection = {
      ...broker,
      mqtt: { ...broker.mqtt, mode: 'external', host: 'emqx', port: 8883, protocol: 'mqtts', ownTopic: null },
    };
    const snippet = mosquittoPub({ ...input, connection: external })!;
    expect(snippet).toContain('--capath /etc/ssl/certs');
    expect(snippet).toContain('-u "$MQTT_USER" -P "$MQTT_PASSWORD"');
    expect(snippet).toContain("-t 'kilowatch/things/Meter-01/telemetry'");
    expect(snippet).not.toContain('tok_ABC-123');
    expect(topicOf(external, 'Meter-01')).toBe('kilowatch/things/Meter-01/telemetry');
    expect(
      mosquittoPub({ ...input, connection: { ...external, mqtt: { ...external.mqtt, protocol: 'wss' } } }),
    ).toBeNull();
    expect(
      mosquittoPub({
        ...input,
        connection: { ...broker, mqtt: { ...broker.mqtt, mode: 'off', host: null, port: null } },
      }),
    ).toBeNull();
  });

  it('quotes what the shell would otherwise read', () => {
    expect(mosquittoPub({ ...input, values: { note: "it's" } })).toContain(
      `-m '{"values":{"note":"it'\\''s"}}'`,
    );
  });

  it('curl posts JSON with the device token; Telegraf points influxdb_v2 at the server', () => {
    expect(curlJson(input)).toBe(
      [
        "curl -sS 'http://plant.local:8080/api/telemetry' \\",
        "  -H 'x-Device-Token: tok_ABC-123' \\",
        "  -H 'content-type: application/json' \\",
        `  -d '{"values":{"P":12.5}}'`,
      ].join('\n'),
    );
    const telegraf = telegrafOutput(input);
    expect(telegraf).toContain('[[outputs.influxdb_v2]]');
    expect(telegraf).toContain('urls = ["http://plant.local:8080"]');
    expect(telegraf).toContain('token = "tok_ABC-123"');
  });

  it('ThingsBoard HTTP puts the token in the path and sends the values flat', () => {
    expect(curlThingsboard({ ...input, values: { P: 12.5, ON: true } })).toBe(
      [
        "curl -sS 'http://plant.local:8080/api/v1/tok_ABC-123/telemetry' \\",
        "  -H 'content-type: application/json' \\",
        `  -d '{"P":12.5,"ON":true}'`,
      ].join('\n'),
    );
  });

  it('InfluxDB 1.x logs in with the token as password and writes one line of fields', () => {
    expect(curlInfluxV1({ ...input, values: { P: 12.5, ON: true, RUN: '1' } })).toBe(
      [
        "curl -sS 'http://plant.local:8080/write?db=kilowatch' \\",
        "  -u 'kilowatch:tok_ABC-123' \\",
        `  --data-binary 'kilowatch P=12.5,ON=true,RUN="1"'`,
      ].join('\n'),
    );
    // Line-protocol escapes in keys and text, then the shell's quoting around the whole line.
    expect(curlInfluxV1({ ...input, values: { 'a b,c=d': 'say "it\'s"' } })).toContain(
      `--data-binary 'kilowatch a\\ b\\,c\\=d="say \\"it'\\''s\\""'`,
    );
  });

  it('samples up to three stored abilities with values they accept', () => {
    expect(
      sampleValues([
        ability('FW', 'string'),
        ability('P', 'number'),
        ability('ON', 'boolean'),
        ability('RUN', 'enum', { enumOptions: [{ value: '1', label: '运行' }] }),
        ability('Q', 'number'),
      ]),
    ).toEqual({ P: 12.5, ON: true, RUN: '1' });
    expect(sampleValues([ability('FW', 'string')])).toEqual({});
  });
});
