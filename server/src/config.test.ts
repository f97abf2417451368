import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, type Env, loadConfig } from './config.ts';

describe('loadConfig', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'kilowatch-config-'));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });
  const load = (env: Env) => loadConfig({ DATA_DIR: dataDir, ...env });
  const failure = (env: Env): string => {
    try {
      load(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('expected a ConfigError');
  };

  it('has defaults: port 8080, SQLite in DATA_DIR, 30 min / 7 day tokens', () => {
    const config = load({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir,
      database: { kind: 'sqlite', file: join(dataDir, 'kilowatch.db') },
      accessTokenTtl: 1800,
      refreshTokenTtl: 604_800,
      logLevel: 'info',
      adminPassword: undefined,
      trustProxy: false,
    });
  });

  it('creates DATA_DIR and keeps a generated secret in it, private and stable', () => {
    const nested = join(dataDir, 'a', 'b');
    const first = loadConfig({ DATA_DIR: nested });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(statSync(join(nested, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: nested }).jwtSecret).toBe(first.jwtSecret);
  });

  it('uses JWT_SECRET when given and refuses a short one', () => {
    expect(load({ JWT_SECRET: 's'.repeat(40) }).jwtSecret).toBe('s'.repeat(40));
    expect(failure({ JWT_SECRET: 'short' })).toMatch(/^JWT_SECRET/);
  });

  it('names a bad PORT', () => {
    expect(failure({ PORT: 'eighty' })).toBe('PORT must be an integer from 0 to 65535, got "eighty"');
    expect(failure({ PORT: '70000' })).toMatch(/^PORT/);
    expect(load({ PORT: '3000' }).port).toBe(3000);
  });

  it('gives the threads beside the main one nice 10 unless THREAD_NICE says otherwise (0–19)', () => {
    expect(load({}).ops.threadNice).toBe(10);
    expect(load({ THREAD_NICE: '0' }).ops.threadNice).toBe(0);
    expect(failure({ THREAD_NICE: '20' })).toBe('THREAD_NICE must be an integer from 0 to 19, got "20"');
    expect(failure({ THREAD_NICE: '-1' })).toMatch(/^THREAD_NICE/);
  });

  it('chooses PostgreSQL for a postgres URL and names a bad DATABASE_URL without its password', () => {
    expect(load({ DATABASE_URL: 'postgres://u:p@db:5432/kw' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u:p@db:5432/kw',
    });
    const message = failure({ DATABASE_URL: 'mysql://root:hunter2@db/kw' });
    expect(message).toMatch(/^DATABASE_URL must start with postgres:\/\//);
    expect(message).not.toContain('hunter2');
    expect(failure({ DATABASE_URL: 'not a url' })).toMatch(/^DATABASE_URL/);
  });

  it('checks ADMIN_PASSWORD against the password rule', () => {
    expect(failure({ ADMIN_PASSWORD: 'abc' })).toMatch(/^ADMIN_PASSWORD must be 6 to 20 characters/);
    expect(failure({ ADMIN_PASSWORD: 'has space 123' })).toMatch(/^ADMIN_PASSWORD/);
    expect(load({ ADMIN_PASSWORD: 'Admin123' }).adminPassword).toBe('Admin123');
  });

  it('names bad token lifetimes, log level and proxy setting', () => {
    expect(failure({ ACCESS_TOKEN_TTL: '-5' })).toMatch(/^ACCESS_TOKEN_TTL/);
    expect(failure({ ACCESS_TOKEN_TTL: '3600', REFRESH_TOKEN_TTL: '600' })).toMatch(/^REFRESH_TOKEN_TTL/);
    expect(failure({ LOG_LEVEL: 'loud' })).toMatch(/^LOG_LEVEL/);
    expect(failure({ TRUST_PROXY: 'yes please' })).toMatch(/^TRUST_PROXY/);
    expect(load({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8,127.0.0.1');
    expect(load({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(load({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '::1, fd00::/8' }).trustProxy).toBe('::1,fd00::/8');
    for (const bad of ['1.2.3', '10.0.0.0/33', '::::', '10.0.0.1/8/8', 'fd00::/129', '10.0.0.1,,']) {
      expect(failure({ TRUST_PROXY: bad }), bad).toMatch(/^TRUST_PROXY/);
    }
  });
});
