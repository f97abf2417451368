import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, type Env, loadConfig } from '../config.ts';

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

  it('names a bad zone or retention', () => {
    expect(() => load({ PLANT_TIMEZONE: 'Asia/Atlantis' })).toThrow(ConfigError);
    expect(() => load({ PLANT_TIMEZONE: 'Asia/Atlantis' })).toThrow(/PLANT_TIMEZONE/);
    expect(() => load({ RETENTION_RAW_DAYS: 'ninety' })).toThrow(/RETENTION_RAW_DAYS must be an integer/);
    expect(() => load({ RETENTION_RAW_DAYS: '500' })).toThrow(/RETENTION_RAW_DAYS < RETENTION_MINUTE_DAYS/);
  });
});
