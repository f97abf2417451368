import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';

// Usage: tsx src/openapi-export.ts <outfile>. Builds a throwaway app (in-memory SQLite, temp data
// folder) so the document comes from the same route schemas the server validates with.
const out = process.argv[2];
if (!out) {
  console.error('usage: tsx server/src/openapi-export.ts <outfile>');
  process.exit(1);
}

const dataDir = mkdtempSync(join(tmpdir(), 'kilowatch-openapi-'));
try {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_DIST: join(dataDir, 'web') });
  const app = await buildApp({ ...config, database: { kind: 'sqlite', file: ':memory:' } });
  writeFileSync(resolve(out), `${JSON.stringify(app.swagger(), null, 2)}\n`);
  await app.close();
  console.info(`OpenAPI document written to ${resolve(out)}`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
