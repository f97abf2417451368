import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PASSWORD_PATTERN } from '@kilowatch/contract';

export type DatabaseConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  /** Signs tokens; the login key is derived from it too, so rotating it logs everyone out. */
  jwtSecret: string;
  adminPassword: string | undefined;
  /** Seconds. */
  accessTokenTtl: number;
  /** Seconds. */
  refreshTokenTtl: number;
  logLevel: LogLevel;
  webDist: string;
  /**
   * Fastify `trustProxy` (true, or the proxies' addresses/CIDRs): needed behind a reverse proxy so
   * login throttling counts client addresses rather than the proxy's.
   */
  trustProxy: boolean | string;
}

export type Env = Record<string, string | undefined>;

/** A bad environment variable; the message names it and says what is expected. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const MIN_SECRET_LENGTH = 32;

const read = (env: Env, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value ? value : undefined;
};

const integer = (env: Env, name: string, fallback: number, min: number, max: number): number => {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
};

/** Credentials must not end up in a startup error printed to a shared console. */
const withoutCredentials = (url: string): string => url.replace(/\/\/[^@/]*@/, '//***@');

const database = (env: Env, dataDir: string): DatabaseConfig => {
  const url = read(env, 'DATABASE_URL');
  if (url === undefined) return { kind: 'sqlite', file: join(dataDir, 'kilowatch.db') };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`DATABASE_URL is not a valid URL: "${withoutCredentials(url)}"`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new ConfigError(
      `DATABASE_URL must start with postgres:// or postgresql:// (leave it unset for the embedded SQLite database), got "${withoutCredentials(url)}"`,
    );
  }
  return { kind: 'postgres', url };
};

/** The secret survives restarts so tokens stay valid; it is created once per data folder. */
const jwtSecret = (env: Env, dataDir: string): string => {
  const given = read(env, 'JWT_SECRET');
  if (given !== undefined) {
    if (given.length < MIN_SECRET_LENGTH) {
      throw new ConfigError(`JWT_SECRET must be at least ${MIN_SECRET_LENGTH} characters long`);
    }
    return given;
  }
  const file = join(dataDir, 'secret.key');
  if (!existsSync(file)) {
    try {
      writeFileSync(file, `${randomBytes(48).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process starting on the same folder may have won the race; its key is as good.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const stored = readFileSync(file, 'utf8').trim();
  if (stored.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(`${file} (used because JWT_SECRET is unset) holds a key that is too short`);
  }
  return stored;
};

const trustProxy = (env: Env): boolean | string => {
  const raw = read(env, 'TRUST_PROXY');
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*$/.test(raw)) return raw;
  throw new ConfigError(
    `TRUST_PROXY must be true, false or a comma-separated list of proxy addresses, got "${raw}"`,
  );
};

/**
 * Reads and checks the environment once at start. Creates DATA_DIR and, when JWT_SECRET is
 * unset, DATA_DIR/secret.key. Throws ConfigError naming the first bad variable.
 */
export function loadConfig(env: Env): Config {
  const dataDir = resolve(read(env, 'DATA_DIR') ?? join(REPO_ROOT, 'data'));
  const adminPassword = read(env, 'ADMIN_PASSWORD');
  if (adminPassword !== undefined && !PASSWORD_PATTERN.test(adminPassword)) {
    throw new ConfigError(
      'ADMIN_PASSWORD must be 6 to 20 characters from letters, digits and ? ~ ! , . # & @ $ % ^ *',
    );
  }
  const logLevel = (read(env, 'LOG_LEVEL') ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const accessTokenTtl = integer(env, 'ACCESS_TOKEN_TTL', 1800, 10, 86_400);
  const refreshTokenTtl = integer(env, 'REFRESH_TOKEN_TTL', 7 * 86_400, 60, 365 * 86_400);
  if (refreshTokenTtl <= accessTokenTtl) {
    throw new ConfigError('REFRESH_TOKEN_TTL must be longer than ACCESS_TOKEN_TTL');
  }
  const databaseConfig = database(env, dataDir);
  const proxy = trustProxy(env);
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    throw new ConfigError(`DATA_DIR "${dataDir}" cannot be created: ${(error as Error).message}`);
  }
  return {
    port,
    host: read(env, 'HOST') ?? '0.0.0.0',
    dataDir,
    database: databaseConfig,
    jwtSecret: jwtSecret(env, dataDir),
    adminPassword,
    accessTokenTtl,
    refreshTokenTtl,
    logLevel,
    webDist: resolve(read(env, 'WEB_DIST') ?? join(REPO_ROOT, 'web', 'dist')),
    trustProxy: proxy,
  };
}
