import { type Static, Type } from 'typebox';
import { endpoint } from './endpoint.ts';

/**
 * POST /api/ops/backup: an online copy of the embedded data folder into `dir`, a folder on the
 * server's machine that must not exist yet (it is created, so nothing is ever overwritten).
 * Guarded by OPS_TOKEN, or open to callers on the server's own machine only (docs/deploy.md).
 */
export const OpsBackupRequest = Type.Object({
  /** Absolute path on the server's machine, outside DATA_DIR. */
  dir: Type.String({ minLength: 1, maxLength: 4096 }),
});
export type OpsBackupRequest = Static<typeof OpsBackupRequest>;

export const OpsBackupFile = Type.Object({ name: Type.String(), bytes: Type.Integer({ minimum: 0 }) });

export const OpsBackupResult = Type.Object({
  dir: Type.String(),
  files: Type.Array(OpsBackupFile),
  /** Tiers this server keeps elsewhere, with the tool that backs them up (pg_dump, vmbackup). */
  elsewhere: Type.Array(Type.String()),
  tookMs: Type.Number(),
});
export type OpsBackupResult = Static<typeof OpsBackupResult>;

export const opsBackup = endpoint({
  method: 'POST',
  path: '/api/ops/backup',
  body: OpsBackupRequest,
  response: OpsBackupResult,
  tags: ['system'],
  summary: 'Online backup of the embedded data folder (SQLite and DuckDB) into a new folder',
});
