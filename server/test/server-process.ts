import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.ts';
import { type Config, type Env, loadConfig } from '../src/config.ts';
import { freePort } from '../src/ingest/testing.ts';
import { apiAs } from '../src/modules/things/testing.ts';
import { ADMIN_PASSWORD, login } from './helpers.ts';

const serverTs = join(dirname(fileURLToPath(import.meta.url)), '../src/server.ts');

export interface MeterServer {
  env: Env;
  config: Config;
  port: number;
  /** The meters, in the order of the identifiers asked for, with their access tokens. */
  things: { id: number; token: string }[];
}

/**
 * The set-up of the tests that stop a real server process (SIGKILL, SIGTERM): its environment on
 * `dir`, and meters of one category (电表, ability P) made through the API before it starts.
 */
export async function meterServer(
  dir: string,
  identifiers: readonly string[],
  { mqttPort, logLevel = 'silent' }: { mqttPort?: number; logLevel?: string } = {},
): Promise<MeterServer> {
  const port = await freePort();
  const env: Env = {
    DATA_DIR: dir,
    PORT: String(port),
    HOST: '127.0.0.1',
    MQTT_PORT: String(mqttPort ?? 0),
    SIMULATOR: 'off',
    LOG_LEVEL: logLevel,
    ADMIN_PASSWORD,
    PLANT_TIMEZONE: 'UTC',
    WEB_DIST: join(dir, 'no-web'),
  };
  const config = loadConfig(env);
  const app = await buildApp(config);
  try {
    const api = apiAs(() => app, (await login(app)).token);
    const category = (await api.post('/api/thing/categories', { name: '电表' })).body.data;
    await api.post(`/api/thing/categories/${category.id}/abilities`, {
      identifier: 'P',
      name: '功率',
      unit: 'kW',
    });
    const model = (await api.post('/api/thing/models', { categoryId: category.id, name: 'A' })).body.data;
    const things: MeterServer['things'] = [];
    for (const identifier of identifiers) {
      const thing = (await api.post('/api/thing/things', { identifier, name: identifier, modelId: model.id }))
        .body.data;
      things.push({
        id: thing.id as number,
        token: (await api.get(`/api/thing/things/${thing.id}/token`)).body.data.accessToken as string,
      });
    }
    return { env, config, port, things };
  } finally {
    await app.close();
  }
}

/** Starts `tsx server/src/server.ts` and resolves once it listens, with what it has printed so far. */
export function startServer(env: Env): Promise<{ child: ChildProcess; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', serverTs], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes('listening on')) resolve({ child, output: () => out });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${out}`)));
  });
}

/**
 * The points of acknowledged batches missing from what was read back: batch `b` held the values
 * `b * perBatch + j` at `t0 + (b * perBatch + j) * stepMs`.
 */
export function lostPoints(
  stored: ReadonlyMap<number, number>,
  batches: readonly number[],
  { t0, perBatch, stepMs }: { t0: number; perBatch: number; stepMs: number },
): number[] {
  const lost: number[] = [];
  for (const b of batches) {
    for (let j = 0; j < perBatch; j++) {
      const i = b * perBatch + j;
      if (stored.get(t0 + i * stepMs) !== i) lost.push(i);
    }
  }
  return lost;
}
