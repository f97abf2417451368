/**
 * Shared pieces of the end-to-end benchmarks (ingest-bench.ts, query-bench.ts): a real server as a
 * child process on its own ports and temp DATA_DIR, logging in like the console, the benchmark
 * plant (one category of 10 numeric abilities, a model, N things, two regions) created through the
 * API, the value generator, statistics, and clean-up of children and temp folders on exit or SIGINT.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createCipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const ADMIN_PASSWORD = 'Bench12345';
export const TIME_ZONE = 'Asia/Shanghai';
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export const log = (...a: unknown[]) => console.info(...a);

// ---------------------------------------------------------------- arguments and statistics

export const numArg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isFinite(v)) throw new Error(`--${name} needs a number`);
  return v;
};
export const strArg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : String(process.argv[i + 1]);
};
export const flag = (name: string): boolean => process.argv.includes(`--${name}`);

export const quantile = (xs: readonly number[], q: number): number => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
};
export const median = (xs: readonly number[]) => quantile(xs, 0.5);
export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export const machine = (): string =>
  `node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model?.trim()}), ` +
  `${fmt(os.totalmem() / 2 ** 30)} GB RAM, load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}, ${new Date().toISOString()}`;
export const loadAverage = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

export const fileSize = (path: string): number => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

/**
 * A closed DuckDB file's blocks, opened read-only: blocks freed by checkpoints (deleted or
 * rewritten rows) stay in the file until DuckDB reuses them, so its size overstates what is used.
 */
export async function duckdbBlocks(
  path: string,
): Promise<{ total: number; free: number; blockSize: number }> {
  const file = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  const conn = await file.connect();
  try {
    const [size] = (
      await conn.runAndReadAll('SELECT total_blocks, free_blocks, block_size FROM pragma_database_size()')
    ).getRows();
    const [total, free, blockSize] = (size ?? []).map(Number) as [number, number, number];
    return { total, free, blockSize };
  } finally {
    conn.closeSync();
    file.closeSync();
  }
}

// ---------------------------------------------------------------- clean-up

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(os.tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

function cleanUpSync(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {}
    }
  }
  if (!flag('keep')) for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
}
process.on('exit', cleanUpSync);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the server and removing temp folders`);
    cleanUpSync();
    process.exit(130);
  });
}

// ---------------------------------------------------------------- the server

interface RequestLog {
  url: string;
  method: string;
  statusCode: number;
  responseTime: number;
}

export interface Server {
  base: string;
  mqttPort: number;
  dataDir: string;
  pid: number;
  /** Fastify's "request completed" lines (LOG_LEVEL=info): server-side time of each request, ms. */
  requests: RequestLog[];
  stop(): Promise<void>;
}

/**
 * Starts `node --import tsx server/src/server.ts` with SIMULATOR=off on the given ports and data
 * folder, waits until /api/health answers. `nodeArgs` e.g. ['--cpu-prof', '--cpu-prof-dir', dir].
 */
export async function startServer(options: {
  dataDir: string;
  port: number;
  mqttPort: number;
  logLevel?: string;
  nodeArgs?: string[];
  env?: Record<string, string>;
}): Promise<Server> {
  const env = {
    ...process.env,
    DATA_DIR: options.dataDir,
    PORT: String(options.port),
    HOST: '127.0.0.1',
    MQTT_PORT: String(options.mqttPort),
    ADMIN_PASSWORD,
    SIMULATOR: 'off',
    LOG_LEVEL: options.logLevel ?? 'warn',
    PLANT_TIMEZONE: TIME_ZONE,
    WEB_DIST: join(options.dataDir, 'no-web-build'),
    ...options.env,
  };
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), '--import', 'tsx', 'server/src/server.ts'],
    {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.add(child);
  const requests: RequestLog[] = [];
  const pending = new Map<string, { url: string; method: string }>();
  let tail = '';
  let buffered = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (text: string) => {
    buffered += text;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith('{')) {
        try {
          const entry = JSON.parse(line) as {
            msg?: string;
            level?: number;
            reqId?: string;
            responseTime?: number;
            req?: { url: string; method: string };
            res?: { statusCode: number };
          };
          if (entry.msg === 'incoming request' && entry.reqId && entry.req) {
            pending.set(entry.reqId, entry.req);
            continue;
          }
          if (entry.msg === 'request completed' && entry.responseTime !== undefined) {
            const req = entry.req ?? pending.get(entry.reqId ?? '');
            pending.delete(entry.reqId ?? '');
            requests.push({
              url: req?.url ?? '',
              method: req?.method ?? '',
              statusCode: entry.res?.statusCode ?? 0,
              responseTime: entry.responseTime,
            });
            continue;
          }
          if ((entry.level ?? 0) >= 40) console.error(`  [server] ${line.slice(0, 400)}`);
          continue;
        } catch {}
      }
      tail = `${tail}${line}\n`.slice(-4000);
    }
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    tail = `${tail}${text}`.slice(-4000);
    if (/error/i.test(text)) console.error(`  [server stderr] ${text.trim().slice(0, 400)}`);
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const base = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${tail}`);
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok) {
        await res.arrayBuffer();
        break;
      }
    } catch {}
    if (Date.now() > deadline) throw new Error(`server did not answer within 60 s:\n${tail}`);
    await sleep(200);
  }
  return {
    base,
    mqttPort: options.mqttPort,
    dataDir: options.dataDir,
    pid: child.pid as number,
    requests,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
        await exited;
        clearTimeout(timer);
      }
      children.delete(child);
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- API client

export class Api {
  private refreshToken = '';
  private refreshing: Promise<boolean> | null = null;

  constructor(
    readonly base: string,
    private token = '',
  ) {}

  /** What the console does: login key, AES-256-CBC with a random IV, base64(iv ‖ ct), base64 username. */
  async login(username = 'admin', password = ADMIN_PASSWORD): Promise<void> {
    const { data } = (await (await fetch(`${this.base}/api/auth/login-key`)).json()) as {
      data: { key: string };
    };
    const iv = randomBytes(16);
    const cipher = createCipheriv('aes-256-cbc', Buffer.from(data.key, 'base64'), iv);
    const encrypted = Buffer.concat([iv, cipher.update(password, 'utf8'), cipher.final()]).toString('base64');
    const res = await fetch(`${this.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: Buffer.from(username).toString('base64'), password: encrypted }),
    });
    const body = (await res.json()) as { token?: string; refreshToken?: string; data?: { token: string } };
    const token = body.token ?? body.data?.token;
    if (!res.ok || !token) throw new Error(`login failed: ${res.status} ${JSON.stringify(body)}`);
    this.token = token;
    this.refreshToken = body.refreshToken ?? '';
  }

  /**
   * A new token pair for the session, as the console gets one when its token expires: one refresh
   * at a time, shared by the calls that found the token expired together (refreshing the same
   * token from each of them ends the session).
   */
  private refresh(): Promise<boolean> {
    this.refreshing ??= this.rotate().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async rotate(): Promise<boolean> {
    if (!this.refreshToken) return false;
    const res = await fetch(`${this.base}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: this.refreshToken }),
    });
    if (!res.ok) return false;
    const pair = (await res.json()) as { data?: { token: string; refreshToken: string } };
    if (!pair.data) return false;
    this.token = pair.data.token;
    this.refreshToken = pair.data.refreshToken;
    return true;
  }

  get headers(): Record<string, string> {
    return { 'x-authorization': `Bearer ${this.token}`, 'content-type': 'application/json' };
  }

  /** Benches that run longer than a token lives (soak) go on as the console does: refresh, once. */
  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const send = () =>
      fetch(`${this.base}${path}`, {
        method,
        headers: this.headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const token = this.token;
    let res = await send();
    let text = await res.text();
    // A call that raced a refresh another call made is sent again with the new token.
    if (
      res.status === 401 &&
      text.includes('TOKEN_EXPIRED') &&
      (this.token !== token || (await this.refresh()))
    ) {
      res = await send();
      text = await res.text();
    }
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 500)}`);
    return (text ? (JSON.parse(text) as { data: T }).data : undefined) as T;
  }
}

// ---------------------------------------------------------------- the benchmark plant

/** 10 numeric abilities per thing, like a power meter: EP is the cumulative counter. */
export const ABILITIES = [
  { identifier: 'EP', name: '正向有功电能', unit: 'kWh', cumulative: true },
  { identifier: 'P', name: '有功功率', unit: 'kW' },
  { identifier: 'Q', name: '无功功率', unit: 'kvar' },
  { identifier: 'Ua', name: 'A相电压', unit: 'V' },
  { identifier: 'Ub', name: 'B相电压', unit: 'V' },
  { identifier: 'Uc', name: 'C相电压', unit: 'V' },
  { identifier: 'Ia', name: 'A相电流', unit: 'A' },
  { identifier: 'Ib', name: 'B相电流', unit: 'A' },
  { identifier: 'Ic', name: 'C相电流', unit: 'A' },
  { identifier: 'T', name: '温度', unit: '℃' },
] as const;
export const METRICS: readonly string[] = ABILITIES.map((a) => a.identifier);

export interface BenchThing {
  id: number;
  identifier: string;
  token: string;
}
export interface Plant {
  categoryId: number;
  modelId: number;
  things: BenchThing[];
  /** Region with every thing bound. */
  allRegion: number;
  /** Region with the first 10 things bound. */
  tenRegion: number;
}

/** Category with the 10 abilities, a model, `count` things with their tokens, two regions. */
export async function createPlant(api: Api, count: number): Promise<Plant> {
  const category = await api.call<{ id: number }>('POST', '/api/thing/categories', { name: 'Bench meter' });
  for (const [sort, a] of ABILITIES.entries()) {
    await api.call('POST', `/api/thing/categories/${category.id}/abilities`, {
      identifier: a.identifier,
      name: a.name,
      unit: a.unit,
      dataType: 'number',
      cumulative: 'cumulative' in a ? a.cumulative : false,
      sort,
    });
  }
  const model = await api.call<{ id: number }>('POST', '/api/thing/models', {
    categoryId: category.id,
    name: 'Bench model',
  });
  const things: BenchThing[] = [];
  for (let i = 0; i < count; i++) {
    const identifier = `M${String(i + 1).padStart(3, '0')}`;
    const thing = await api.call<{ id: number }>('POST', '/api/thing/things', {
      identifier,
      name: `Bench meter ${i + 1}`,
      modelId: model.id,
    });
    const { accessToken } = await api.call<{ accessToken: string }>(
      'GET',
      `/api/thing/things/${thing.id}/token`,
    );
    things.push({ id: thing.id, identifier, token: accessToken });
  }
  const allRegion = await api.call<{ id: number }>('POST', '/api/regions', { name: 'Bench plant' });
  await api.call('POST', `/api/regions/${allRegion.id}/bindings`, { thingIds: things.map((t) => t.id) });
  const tenRegion = await api.call<{ id: number }>('POST', '/api/regions', { name: 'Bench ten' });
  await api.call('POST', `/api/regions/${tenRegion.id}/bindings`, {
    thingIds: things.slice(0, 10).map((t) => t.id),
  });
  return {
    categoryId: category.id,
    modelId: model.id,
    things,
    allRegion: allRegion.id,
    tenRegion: tenRegion.id,
  };
}

// ---------------------------------------------------------------- values

/**
 * Values of thing `t` (0-based) at step `i` (ts = start + i × interval), all 10 abilities, with the
 * few decimals meters report. `counter` carries the thing's kWh reading from step to step (steps
 * of one thing must be generated in order). Like store-bench.ts: a daily load curve integrated
 * into the counter, a rare meter reset.
 */
export function sample(
  t: number,
  i: number,
  ts: number,
  intervalMs: number,
  counter: Float64Array,
  out: Float64Array,
) {
  const dayPhase = Math.sin((2 * Math.PI * (ts % DAY)) / DAY);
  const load = Math.round((50 + 30 * dayPhase + ((t * 7919 + i * 31) % 13)) * 100) / 100;
  let c = (counter[t] as number) + (load * intervalMs) / HOUR;
  if ((i * 131 + t) % 500_003 === 0) c = 0; // meter reset
  counter[t] = c;
  out[0] = Math.round(c * 1000) / 1000;
  out[1] = load;
  out[2] = Math.round(load * 35) / 100;
  out[3] = 230 + ((i + t) % 7) * 0.5;
  out[4] = 229.5 + ((i + t + 3) % 7) * 0.5;
  out[5] = 230.5 + ((i + t + 5) % 7) * 0.5;
  out[6] = Math.round(load * 250) / 100;
  out[7] = Math.round(load * 248 + 30) / 100;
  out[8] = Math.round(load * 252 - 30) / 100;
  out[9] = Math.round((35 + 5 * dayPhase + (i % 3) * 0.1) * 10) / 10;
}

/** Per-window rates (points/s) of acknowledged points: events (time ms, points) after t0. */
export function windowRates(
  events: readonly { at: number; points: number }[],
  t0: number,
  windowMs: number,
  warmupMs: number,
  endMs: number,
): number[] {
  const rates: number[] = [];
  for (let w0 = t0 + warmupMs; w0 + windowMs <= endMs + 1; w0 += windowMs) {
    let n = 0;
    for (const e of events) if (e.at >= w0 && e.at < w0 + windowMs) n += e.points;
    rates.push(n / (windowMs / 1000));
  }
  return rates;
}

// ---------------------------------------------------------------- the server in this process

type BuildApp = typeof import('../server/src/app.ts').buildApp;
type LoadConfig = typeof import('../server/src/config.ts').loadConfig;
type App = Awaited<ReturnType<BuildApp>>;

export interface InProcessApp {
  app: App;
  /** http://127.0.0.1:port when `port` was given. */
  base: string;
  stop(): Promise<void>;
}

/**
 * The whole app built in this process (`buildApp`), for benches that look inside it (services,
 * hooks) or want no HTTP hop: a temp DATA_DIR, SQLite, or PostgreSQL in a schema of its own when
 * `pgUrl` is set (dropped at stop). `root` loads another checkout's server (a same-run baseline).
 * With `port` it listens; with `mqttPort` its broker does (0: none). With `dataDir`, the app keeps
 * its data there (not removed at stop), so a later run finds what this one loaded.
 */
export async function startInProcess(
  options: {
    root?: string;
    port?: number;
    mqttPort?: number;
    pgUrl?: string;
    logLevel?: string;
    dataDir?: string;
  } = {},
): Promise<InProcessApp> {
  const root = options.root ?? REPO_ROOT;
  const { buildApp } = (await import(join(root, 'server/src/app.ts'))) as { buildApp: BuildApp };
  const { loadConfig } = (await import(join(root, 'server/src/config.ts'))) as { loadConfig: LoadConfig };
  const { default: pg } = await import('pg');
  const dataDir = options.dataDir ?? tempDir('kilowatch-bench-app-');
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: options.pgUrl });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  let databaseUrl: string | undefined;
  if (options.pgUrl) {
    await admin(`create schema ${schema}`);
    const url = new URL(options.pgUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = url.toString();
  }
  const app = await buildApp(
    loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: options.logLevel ?? 'silent',
      ADMIN_PASSWORD,
      MQTT_PORT: String(options.mqttPort ?? 0),
      HOST: '127.0.0.1',
      SIMULATOR: 'off',
      PLANT_TIMEZONE: TIME_ZONE,
      WEB_DIST: join(dataDir, 'no-web'),
    }),
  );
  if (options.port) await app.listen({ port: options.port, host: '127.0.0.1' });
  return {
    app,
    base: `http://127.0.0.1:${options.port ?? 0}`,
    async stop() {
      await app.close();
      if (!options.dataDir) removeDir(dataDir);
      if (options.pgUrl) await admin(`drop schema ${schema} cascade`);
    },
  };
}

const CLOCK_TICKS = 100;
/** CPU seconds (user + system) used so far by a process, from /proc. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

/** A memory field of /proc/<pid>/status (VmRSS, VmHWM, …) in MB. */
export function procStatusMb(pid: number, field: string): number {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(text.match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? 0) / 1024;
}
