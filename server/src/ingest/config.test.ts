import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, type Env, loadConfig } from '../config.ts';

describe('ingest settings', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'kilowatch-ingest-config-'));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });
  const load = (env: Env) => loadConfig({ DATA_DIR: dataDir, ...env }).ingest;
  const failure = (env: Env): string => {
    try {
      load(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('expected a ConfigError');
  };

  it('defaults to the in-process broker on 1883', () => {
    expect(load({})).toEqual({
      mqttPort: 1883,
      mqttUrl: undefined,
      mqttShareGroup: 'kilowatch',
      maxBatch: 50_000,
      mqttMaxPacket: 1_048_576,
    });
    expect(load({ MQTT_PORT: '0', INGEST_MAX_BATCH: '10' })).toMatchObject({ mqttPort: 0, maxBatch: 10 });
    expect(load({ MQTT_URL: 'mqtts://user:pw@broker:8883', MQTT_SHARE_GROUP: 'site-a' })).toMatchObject({
      mqttUrl: 'mqtts://user:pw@broker:8883',
      mqttShareGroup: 'site-a',
    });
  });

  it('names the bad variable', () => {
    expect(failure({ MQTT_PORT: '70000' })).toMatch(/^MQTT_PORT must be an integer from 0 to 65535/);
    expect(failure({ MQTT_URL: 'http://user:secret@x' })).toMatch(/^MQTT_URL must start with mqtt:\/\//);
    expect(failure({ MQTT_URL: 'http://user:secret@x' })).not.toContain('secret');
    expect(failure({ MQTT_URL: 'not a url' })).toMatch(/^MQTT_URL is not a valid URL/);
    expect(failure({ MQTT_SHARE_GROUP: 'a/b' })).toMatch(/^MQTT_SHARE_GROUP must be/);
    expect(failure({ INGEST_MAX_BATCH: '0' })).toMatch(/^INGEST_MAX_BATCH must be an integer from 1/);
  });
});
