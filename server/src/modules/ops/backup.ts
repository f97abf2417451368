import { existsSync } from 'node:fs';
import { copyFile, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { OpsBackupResult } from '@kilowatch/contract';
import { AppError } from '../../errors.ts';
import { SERVER_VERSION } from '../../version.ts';

export interface BackupDeps {
  dataDir: string;
  /** The metadata database: SQLite has `backup`, PostgreSQL none (pg_dump). */
  database: { dialect: string; backup?: (file: string) => Promise<void> };
  /** The telemetry store: DuckDB has `backup`, VictoriaMetrics none (vmbackup). */
  telemetry: { backup?: (file: string) => Promise<void> };
}

/** Files of the data folder that are copied as they are (the token secret, the demo's progress). */
const PLAIN_FILES = ['secret.key', 'demo-history.json'];
export const MANIFEST = 'backup.json';

/**
 * Copies the embedded data folder into the new folder `dir` while the server runs: SQLite through
 * its backup API, then DuckDB as one snapshot (`COPY FROM DATABASE` in a transaction), then the
 * token secret. SQLite goes first, so every thing and channel the copy names has all its points
 * acknowledged before that moment. A restore is: stop, put the files in an empty DATA_DIR, start.
 * A copy that fails half-way is removed, so a folder that exists is a whole backup.
 */
export async function backupDataFolder(deps: BackupDeps, dir: string): Promise<OpsBackupResult> {
  if (!isAbsolute(dir)) throw new AppError('BAD_REQUEST', 400, {}, { message: 'ops.backupDirRelative' });
  const target = resolve(dir);
  const inside = relative(resolve(deps.dataDir), target);
  if (inside === '' || (!inside.startsWith('..') && !isAbsolute(inside))) {
    throw new AppError('BAD_REQUEST', 400, {}, { message: 'ops.backupDirInData' });
  }
  const started = performance.now();
  await mkdir(resolve(target, '..'), { recursive: true });
  try {
    // Not recursive: an existing folder fails here, so nothing of anyone's is ever overwritten.
    await mkdir(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new AppError('CONFLICT', 409, { dir: target }, { message: 'ops.backupDirExists' });
    }
    throw error;
  }
  const elsewhere: string[] = [];
  try {
    if (deps.database.backup) await deps.database.backup(join(target, 'kilowatch.db'));
    else elsewhere.push(`database: ${deps.database.dialect} (pg_dump)`);
    if (deps.telemetry.backup) await deps.telemetry.backup(join(target, 'telemetry.duckdb'));
    else elsewhere.push('telemetry: VictoriaMetrics (vmbackup)');
    for (const name of PLAIN_FILES) {
      const from = join(deps.dataDir, name);
      if (existsSync(from)) await copyFile(from, join(target, name));
    }
    const names = ['kilowatch.db', 'telemetry.duckdb', ...PLAIN_FILES].filter((n) =>
      existsSync(join(target, n)),
    );
    const files = await Promise.all(
      names.map(async (name) => ({ name, bytes: (await stat(join(target, name))).size })),
    );
    const result = { dir: target, files, elsewhere, tookMs: Math.round(performance.now() - started) };
    await writeFile(
      join(target, MANIFEST),
      `${JSON.stringify({ version: SERVER_VERSION, at: new Date().toISOString(), ...result }, null, 2)}\n`,
    );
    return result;
  } catch (error) {
    await rm(target, { recursive: true, force: true });
    throw error;
  }
}
