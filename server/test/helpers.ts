import { createCipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TokenPair } from '@kilowatch/contract';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { expect } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Config, type Env, loadConfig } from '../src/config.ts';
import type { Dialect } from '../src/db/index.ts';
import { type Account, hashPassword } from '../src/modules/auth/index.ts';
import { insertUserIfAbsent } from '../src/modules/users/index.ts';

export const ADMIN_PASSWORD = 'Admin123';

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL names a server to test against. */
export const dialects = (): Dialect[] =>
  process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestClock {
  now: () => number;
  advance: (ms: number) => void;
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  clock: TestClock;
  /** Closes the app and builds a new one on the same database, like a server restart. */
  restart: () => Promise<FastifyInstance>;
  /** Closes the app and removes its database and data folder. */
  close: () => Promise<void>;
}

const withSearchPath = (url: string, schema: string): string => {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  return parsed.toString();
};

/**
 * A fresh app on its own database: a SQLite file in a temp data folder, or a new PostgreSQL
 * schema reached through search_path, so suites stay isolated and can run in parallel.
 * `env` entries override the defaults (set one to undefined to unset it).
 */
export async function buildTestApp(dialect: Dialect, overrides: { env?: Env } = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kilowatch-test-'));
  let time = Date.parse('2026-11-22T08:00:00Z');
  const clock: TestClock = { now: () => time, advance: (ms) => (time += ms) };
  const env: Env = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ADMIN_PASSWORD,
    // No MQTT broker on 1883 for every suite running in parallel; ingest tests pick a free port.
    MQTT_PORT: '0',
    WEB_DIST: join(dataDir, 'no-web-build'),
    ...overrides.env,
  };

  let dropSchema = async () => {};
  if (dialect === 'postgres') {
    const base = process.env.TEST_DATABASE_URL;
    if (!base) throw new Error('TEST_DATABASE_URL is not set');
    const schema = `kw_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    env.DATABASE_URL = withSearchPath(base, schema);
    dropSchema = async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    };
  }

  const removeAll = async () => {
    await dropSchema();
    rmSync(dataDir, { recursive: true, force: true });
  };
  let config: Config;
  let app: FastifyInstance;
  try {
    config = loadConfig(env);
    app = await buildApp(config, { now: clock.now });
  } catch (error) {
    await removeAll();
    throw error;
  }
  const handle: TestApp = {
    app,
    config,
    clock,
    async restart() {
      await handle.app.close();
      handle.app = await buildApp(config, { now: clock.now });
      return handle.app;
    },
    async close() {
      await handle.app.close();
      await removeAll();
    },
  };
  return handle;
}

export const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

/** What the console does: fetch the login key, AES-256-CBC with a random IV, base64(iv ‖ ciphertext). */
export async function encryptPassword(app: FastifyInstance, password: string): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/api/auth/login-key' });
  const key = Buffer.from(res.json().data.key, 'base64');
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  return Buffer.concat([iv, cipher.update(password, 'utf8'), cipher.final()]).toString('base64');
}

export async function loginRequest(
  app: FastifyInstance,
  username: string,
  password: string,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers,
    payload: { username: base64(username), password: await encryptPassword(app, password) },
  });
}

/** Logs in and returns the token pair, failing the test unless the login succeeds. */
export async function login(
  app: FastifyInstance,
  username = 'admin',
  password = ADMIN_PASSWORD,
): Promise<TokenPair> {
  const res = await loginRequest(app, username, password);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

export async function createUser(
  app: FastifyInstance,
  user: { username: string; password: string; userLevel: number | null; disabled?: boolean },
): Promise<Account> {
  const created = await insertUserIfAbsent(
    app.db.db,
    { ...user, passwordHash: await hashPassword(user.password) },
    new Date().toISOString(),
  );
  if (!created) throw new Error(`user ${user.username} exists`);
  return created;
}

export const bearer = (token: string) => ({ 'x-authorization': `Bearer ${token}` });
