import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PASSWORD_PATTERN } from '@kilowatch/contract';

export type DatabaseConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  /** Signs tokens; the login key is derived from it too, so rotating it logs everyone out. */
  jwtSecret: string;
  /**
   * True when JWT_SECRET was set. Unset on PostgreSQL, the first replica's key is kept in the
   * database and every replica signs with it (cluster/secret.ts).
   */
  jwtSecretGiven: boolean;
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
  /** Telemetry store (DATA_DIR/telemetry.duckdb): plant time zone and retention per resolution. */
  telemetry: TelemetryConfig;
  /** Telemetry ingest: MQTT broker or external subscription, batch limit. */
  ingest: IngestConfig;
  /** Demo plant simulator (server/src/simulator, docs/demo-plant.md). */
  simulator: SimulatorConfig;
  /** Operating the server: who reads /metrics and takes backups, how long a shutdown may take. */
  ops: OpsConfig;
}

interface OpsConfig {
  /**
   * OPS_TOKEN: the bearer token of GET /metrics and POST /api/ops/backup. Unset: only callers on
   * this machine (loopback, no proxy in between) may use them.
   */
  token: string | undefined;
  /** SHUTDOWN_TIMEOUT (seconds, default 30): a SIGTERM's drain that takes longer exits with 1. */
  shutdownTimeoutMs: number;
  /**
   * THREAD_NICE (0–19, default 10): the nice value of the server's threads beside the main one,
   * so the main thread, which answers every request, gets a core first (thread-priority.ts);
   * 0 leaves them as they are.
   */
  threadNice: number;
}

interface SimulatorConfig {
  /** SIMULATOR=on|off (default on): publish the demo plant's telemetry over MQTT after start. */
  enabled: boolean;
  /** SIMULATOR_THINGS (50–200, default 120): how many things a freshly seeded plant gets. */
  things: number;
  /** SIMULATOR_HISTORY_DAYS (0–366, default 31): days of history a fresh plant writes in the background. */
  historyDays: number;
  /** SIMULATOR_HISTORY_STEP (10–3600 s, default 60): seconds between the history's samples. */
  historyStepMs: number;
}

interface IngestConfig {
  /** MQTT_PORT: the in-process broker's port (default 1883); 0 disables it. Unused with MQTT_URL. */
  mqttPort: number;
  /** MQTT_URL (mqtt://, mqtts://, ws://, wss://): subscribe to this external broker instead. */
  mqttUrl: string | undefined;
  /** MQTT_SHARE_GROUP: shared-subscription group of the replicas (default 'kilowatch'). */
  mqttShareGroup: string;
  /** INGEST_MAX_BATCH: most values one HTTP request, MQTT message or line-protocol body may carry. */
  maxBatch: number;
  /** MQTT_MAX_PACKET: largest MQTT packet (bytes) the in-process broker reads (default 1 MiB). */
  mqttMaxPacket: number;
}

interface TelemetryConfig {
  /** PLANT_TIMEZONE (IANA): day, month and year buckets start at its local midnight. */
  timeZone: string;
  /** Days kept: raw points, minute and hour rollups (day rollups are kept forever). */
  retention: { rawDays: number; minuteDays: number; hourDays: number };
  /**
   * TELEMETRY_URL (http:// or https://): VictoriaMetrics instead of DATA_DIR/telemetry.duckdb, a
   * single node or a cluster's vminsert with its tenant (`…/insert/<account>/prometheus`).
   */
  url?: string;
  /** TELEMETRY_SELECT_URL: with a cluster, vmselect with the same tenant (`…/select/<account>/prometheus`). */
  selectUrl?: string;
  /**
   * TELEMETRY_MEMORY_MB (64–65536): DuckDB's memory_limit, its buffer pool and its queries'
   * memory; unset, the store's default (256 MB, telemetry/duckdb/store.ts).
   */
  memoryMb?: number;
}

/**
 * The options of `openTelemetryStore` that the embedded store takes from the configuration, for
 * the server and the CLIs alike (the CLIs open DATA_DIR's store, never TELEMETRY_URL's).
 */
export const embeddedStoreOptions = (config: Pick<Config, 'dataDir' | 'telemetry'>) => ({
  dataDir: config.dataDir,
  timeZone: config.telemetry.timeZone,
  retention: config.telemetry.retention,
  memoryMb: config.telemetry.memoryMb,
});

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

/** An IPv4/IPv6 address, optionally with a /prefix that fits it. */
const isAddressOrCidr = (text: string): boolean => {
  const [address = '', prefix, extra] = text.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
};

/**
 * TRUST_PROXY: whether X-Forwarded-For is believed (login throttling counts that address).
 * `true` trusts every hop; a list trusts the header only from those proxies.
 */
const trustProxy = (env: Env): boolean | string => {
  const raw = read(env, 'TRUST_PROXY');
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.every(isAddressOrCidr)) return parts.join(',');
  throw new ConfigError(
    `TRUST_PROXY must be true, false or a comma-separated list of proxy addresses or CIDRs (e.g. 10.0.0.2,10.0.1.0/24), got "${raw}"`,
  );
};

const telemetry = (env: Env): TelemetryConfig => {
  let timeZone = read(env, 'PLANT_TIMEZONE');
  if (timeZone === undefined) {
    try {
      timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    } catch {
      timeZone = 'UTC';
    }
  } else {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone });
    } catch {
      throw new ConfigError(
        `PLANT_TIMEZONE must be an IANA time zone such as Asia/Shanghai or UTC, got "${timeZone}"`,
      );
    }
  }
  const rawDays = integer(env, 'RETENTION_RAW_DAYS', 90, 1, 36_500);
  const minuteDays = integer(env, 'RETENTION_MINUTE_DAYS', 400, 2, 36_500);
  const hourDays = integer(env, 'RETENTION_HOUR_DAYS', 1830, 3, 36_500);
  if (!(rawDays < minuteDays && minuteDays < hourDays)) {
    throw new ConfigError(
      `RETENTION_RAW_DAYS < RETENTION_MINUTE_DAYS < RETENTION_HOUR_DAYS is required (late points recompute rollups from the finer level), got ${rawDays}, ${minuteDays}, ${hourDays}`,
    );
  }
  const url = httpUrl(env, 'TELEMETRY_URL');
  const selectUrl = httpUrl(env, 'TELEMETRY_SELECT_URL');
  if (selectUrl !== undefined && url === undefined)
    throw new ConfigError("TELEMETRY_SELECT_URL goes with TELEMETRY_URL (the cluster's vminsert)");
  return {
    timeZone,
    retention: { rawDays, minuteDays, hourDays },
    ...(read(env, 'TELEMETRY_MEMORY_MB')
      ? { memoryMb: integer(env, 'TELEMETRY_MEMORY_MB', 0, 64, 65_536) }
      : {}),
    ...(url ? { url } : {}),
    ...(selectUrl ? { selectUrl } : {}),
  };
};

const httpUrl = (env: Env, name: string): string | undefined => {
  const value = read(env, name);
  if (value === undefined) return undefined;
  let protocol = '';
  try {
    protocol = new URL(value).protocol;
  } catch {
    throw new ConfigError(`${name} is not a valid URL: "${withoutCredentials(value)}"`);
  }
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new ConfigError(`${name} must start with http:// or https://, got "${withoutCredentials(value)}"`);
  return value;
};

const ingest = (env: Env): IngestConfig => {
  const mqttUrl = read(env, 'MQTT_URL');
  if (mqttUrl !== undefined) {
    let protocol = '';
    try {
      protocol = new URL(mqttUrl).protocol;
    } catch {
      throw new ConfigError(`MQTT_URL is not a valid URL: "${withoutCredentials(mqttUrl)}"`);
    }
    if (!['mqtt:', 'mqtts:', 'ws:', 'wss:', 'tcp:', 'ssl:'].includes(protocol)) {
      throw new ConfigError(
        `MQTT_URL must start with mqtt://, mqtts://, ws:// or wss:// (leave it unset for the in-process broker), got "${withoutCredentials(mqttUrl)}"`,
      );
    }
  }
  const mqttShareGroup = read(env, 'MQTT_SHARE_GROUP') ?? 'kilowatch';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(mqttShareGroup)) {
    throw new ConfigError(
      `MQTT_SHARE_GROUP must be 1 to 64 letters, digits, _ or - (no / + #), got "${mqttShareGroup}"`,
    );
  }
  return {
    mqttPort: integer(env, 'MQTT_PORT', 1883, 0, 65535),
    mqttUrl,
    mqttShareGroup,
    maxBatch: integer(env, 'INGEST_MAX_BATCH', 50_000, 1, 1_000_000),
    mqttMaxPacket: integer(env, 'MQTT_MAX_PACKET', 1_048_576, 1024, 268_435_455),
  };
};

const simulator = (env: Env): SimulatorConfig => {
  const raw = read(env, 'SIMULATOR') ?? 'on';
  if (raw !== 'on' && raw !== 'off') throw new ConfigError(`SIMULATOR must be on or off, got "${raw}"`);
  return {
    enabled: raw === 'on',
    things: integer(env, 'SIMULATOR_THINGS', 120, 50, 200),
    historyDays: integer(env, 'SIMULATOR_HISTORY_DAYS', 31, 0, 366),
    historyStepMs: integer(env, 'SIMULATOR_HISTORY_STEP', 60, 10, 3600) * 1000,
  };
};

const MIN_OPS_TOKEN_LENGTH = 16;

const ops = (env: Env): OpsConfig => {
  const token = read(env, 'OPS_TOKEN');
  if (token !== undefined && (token.length < MIN_OPS_TOKEN_LENGTH || /\s/.test(token))) {
    throw new ConfigError(
      `OPS_TOKEN must be at least ${MIN_OPS_TOKEN_LENGTH} characters with no spaces (leave it unset to allow only callers on this machine)`,
    );
  }
  return {
    token,
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT', 30, 1, 3600) * 1000,
    threadNice: integer(env, 'THREAD_NICE', 10, 0, 19),
  };
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
  const telemetryConfig = telemetry(env);
  const ingestConfig = ingest(env);
  const simulatorConfig = simulator(env);
  const opsConfig = ops(env);
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
    jwtSecretGiven: read(env, 'JWT_SECRET') !== undefined,
    adminPassword,
    accessTokenTtl,
    refreshTokenTtl,
    logLevel,
    webDist: resolve(read(env, 'WEB_DIST') ?? join(REPO_ROOT, 'web', 'dist')),
    trustProxy: proxy,
    telemetry: telemetryConfig,
    ingest: ingestConfig,
    simulator: simulatorConfig,
    ops: opsConfig,
  };
}
