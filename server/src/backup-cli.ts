/**
 * `npm run backup -- <dir>`: a consistent copy of the embedded data folder (SQLite metadata, DuckDB
 * telemetry, the token secret) into the new folder <dir>, with the server's own environment.
 * While the server runs it asks it (POST /api/ops/backup on this machine, OPS_TOKEN when set): only
 * the running process may open DuckDB's file. When nothing listens it opens the folder itself.
 * PostgreSQL and VictoriaMetrics tiers are named, not copied: pg_dump and vmbackup (docs/deploy.md).
 */
import { resolve } from 'node:path';
import type { OpsBackupResult } from '@kilowatch/contract';
import { ConfigError, embeddedStoreOptions, loadConfig } from './config.ts';
import { openDatabase } from './db/index.ts';
import { AppError } from './errors.ts';
import { translate } from './i18n/index.ts';
import { backupDataFolder } from './modules/ops/index.ts';
import { openTelemetryStore } from './telemetry/index.ts';

const config = (() => {
  try {
    return loadConfig(process.env);
  } catch (error) {
    console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : String(error));
    process.exit(2);
  }
})();

/** The running server's answer, or undefined when nothing listens on PORT. */
async function online(dir: string): Promise<OpsBackupResult | undefined> {
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${config.port}/api/ops/backup`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'accept-language': 'en',
        ...(config.ops.token ? { authorization: `Bearer ${config.ops.token}` } : {}),
      },
      body: JSON.stringify({ dir }),
    });
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED') return undefined;
    throw error;
  }
  const body = (await res.json()) as { data?: OpsBackupResult; message?: string };
  if (!res.ok || !body.data) throw new Error(`the server answered ${res.status}: ${body.message ?? ''}`);
  return body.data;
}

async function offline(dir: string): Promise<OpsBackupResult> {
  const database = openDatabase(config.database);
  try {
    if (config.telemetry.url)
      return await backupDataFolder({ dataDir: config.dataDir, database, telemetry: {} }, dir);
    const telemetry = await openTelemetryStore(embeddedStoreOptions(config));
    try {
      return await backupDataFolder({ dataDir: config.dataDir, database, telemetry }, dir);
    } finally {
      await telemetry.close();
    }
  } finally {
    await database.close();
  }
}

const [arg] = process.argv.slice(2);
if (!arg) {
  console.error('usage: npm run backup -- <new folder>');
  process.exit(2);
}
const dir = resolve(process.env.INIT_CWD ?? process.cwd(), arg);
try {
  const fromServer = await online(dir);
  const result = fromServer ?? (await offline(dir));
  console.info(
    `Backup written to ${result.dir} in ${result.tookMs} ms (${fromServer ? 'online, by the running server' : 'offline: no server listened'}):`,
  );
  for (const f of result.files) console.info(`  ${f.name}  ${f.bytes} bytes`);
  for (const e of result.elsewhere) console.info(`  not in this folder: ${e}`);
} catch (error) {
  const why =
    error instanceof AppError
      ? translate('en', error.options.message ?? error.code, error.params)
      : error instanceof Error
        ? error.message
        : String(error);
  console.error(`Backup failed: ${why}`);
  process.exit(1);
}
