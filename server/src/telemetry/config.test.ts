import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, type Env, embeddedStoreOptions, loadConfig } from '../config.ts';

describe('telemetry settings', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'kilowatch-config-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));
  const load = (env: Env) => loadConfig({ DATA_DIR: dataDir, ...env });

  it('defaults: the process time zone, 90 / 400 / 1830 days', () => {
    const config = load({});
    expect(config.telemetry.retention).toEqual({ rawDays: 90, minuteDays: 400, hourDays: 1830 });
    expect(config.telemetry.timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  });

  it('takes PLANT_TIMEZONE and retention days', () => {
    const config = load({
      PLANT_TIMEZONE: 'Asia/Shanghai',
      RETENTION_RAW_DAYS: '30',
      RETENTION_MINUTE_DAYS: '180',
      RETENTION_HOUR_DAYS: '3650',
    });
    expect(config.telemetry).toEqual({
      timeZone: 'Asia/Shanghai',
      retention: { rawDays: 30, minuteDays: 180, hourDays: 3650 },
    });
  });

  it('TELEMETRY_MEMORY_MB sets DuckDB memory_limit, within 64 MB and 64 GB', () => {
    expect(load({}).telemetry.memoryMb).toBeUndefined();
    expect(load({ TELEMETRY_MEMORY_MB: '512' }).telemetry.memoryMb).toBe(512);
    expect(() => load({ TELEMETRY_MEMORY_MB: '32' })).toThrow(
      /TELEMETRY_MEMORY_MB must be an integer from 64/,
    );
    expect(() => load({ TELEMETRY_MEMORY_MB: '1GB' })).toThrow(/TELEMETRY_MEMORY_MB must be an integer/);
  });

  it('the embedded store options (server and CLIs) carry the memory and never the remote wing', () => {
    const config = load({
      PLANT_TIMEZONE: 'Asia/Shanghai',
      RETENTION_RAW_DAYS: '30',
      TELEMETRY_MEMORY_MB: '100',
      TELEMETRY_URL: 'http://127.0.0.1:8428',
    });
    expect(embeddedStoreOptions(config)).toEqual({
      dataDir,
      timeZone: 'Asia/Shanghai',
      retention: { rawDays: 30, minuteDays: 400, hourDays: 1830 },
      memoryMb: 100,
    });
  });

  it('names a bad zone or retention', () => {
    expect(() => load({ PLANT_TIMEZONE: 'Asia/Atlantis' })).toThrow(ConfigError);
    expect(() => load({ PLANT_TIMEZONE: 'Asia/Atlantis' })).toThrow(/PLANT_TIMEZONE/);
    expect(() => load({ RETENTION_RAW_DAYS: 'ninety' })).toThrow(/RETENTION_RAW_DAYS must be an integer/);
    expect(() => load({ RETENTION_RAW_DAYS: '500' })).toThrow(/RETENTION_RAW_DAYS < RETENTION_MINUTE_DAYS/);
  });

  it('TELEMETRY_URL picks VictoriaMetrics; TELEMETRY_SELECT_URL its cluster vmselect; both are checked', () => {
    expect(load({}).telemetry.url).toBeUndefined();
    expect(load({ TELEMETRY_URL: 'http://127.0.0.1:8428' }).telemetry).toMatchObject({
      url: 'http://127.0.0.1:8428',
    });
    expect(
      load({
        TELEMETRY_URL: 'http://vminsert:8480/insert/42/prometheus',
        TELEMETRY_SELECT_URL: 'http://vmselect:8481/select/42/prometheus',
      }).telemetry,
    ).toMatchObject({ selectUrl: 'http://vmselect:8481/select/42/prometheus' });
    expect(() => load({ TELEMETRY_URL: 'vm:8428' })).toThrow(/TELEMETRY_URL must start with http/);
    expect(() => load({ TELEMETRY_URL: 'http://u:secret@[' })).toThrow(/TELEMETRY_URL is not a valid URL/);
    expect(() => load({ TELEMETRY_URL: 'http://u:secret@[' })).not.toThrow(/secret/);
    expect(() => load({ TELEMETRY_SELECT_URL: 'http://vmselect:8481/select/0/prometheus' })).toThrow(
      /TELEMETRY_SELECT_URL goes with TELEMETRY_URL/,
    );
  });
});
