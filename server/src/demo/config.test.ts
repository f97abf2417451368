import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';

describe('SIMULATOR and SIMULATOR_THINGS', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kilowatch-simcfg-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dir, ...env });

  it('default to on with 120 things and a month of history a sample a minute', () => {
    expect(load({}).simulator).toEqual({
      enabled: true,
      things: 120,
      historyDays: 31,
      historyStepMs: 60_000,
    });
    expect(
      load({
        SIMULATOR: 'off',
        SIMULATOR_THINGS: '200',
        SIMULATOR_HISTORY_DAYS: '7',
        SIMULATOR_HISTORY_STEP: '10',
      }).simulator,
    ).toEqual({ enabled: false, things: 200, historyDays: 7, historyStepMs: 10_000 });
  });

  it.each([
    ['SIMULATOR', 'yes'],
    ['SIMULATOR', 'false'],
    ['SIMULATOR_THINGS', '49'],
    ['SIMULATOR_THINGS', '201'],
    ['SIMULATOR_THINGS', 'many'],
    ['SIMULATOR_HISTORY_DAYS', '367'],
    ['SIMULATOR_HISTORY_STEP', '5'],
  ])('refuse %s=%s naming the variable', (name, value) => {
    expect(() => load({ [name]: value })).toThrow(ConfigError);
    expect(() => load({ [name]: value })).toThrow(name);
  });
});
