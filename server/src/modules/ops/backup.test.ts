import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { seedPlant } from '../../ingest/testing.ts';
import { apiAs } from '../things/testing.ts';
import { MANIFEST } from './backup.ts';

const PER_BATCH = 100;
const run = promisify(execFile);
let dropRestored = async () => {};

/**
 * docs/deploy.md's PostgreSQL commands: `pg_dump --format=custom` of the test's schema, then
 * `pg_restore` into a new database; answers the restored database's URL with the same search_path.
 */
async function pgDumpAndRestore(url: string): Promise<string> {
  const parsed = new URL(url);
  const schema = /search_path=(\w+)/.exec(parsed.searchParams.get('options') ?? '')?.[1] as string;
  parsed.searchParams.delete('options');
  const file = join(tmpdir(), `kw-${schema}.dump`);
  await run('pg_dump', [
    '--format=custom',
    '--no-owner',
    `--schema=${schema}`,
    `--file=${file}`,
    parsed.toString(),
  ]);
  const name = `kw_restore_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: parsed.toString() });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(parsed.toString());
  target.pathname = `/${name}`;
  await run('pg_restore', ['--no-owner', '--exit-on-error', '-d', target.toString(), file]);
  rmSync(file, { force: true });
  dropRestored = async () => {
    const client = new pg.Client({ connectionString: parsed.toString() });
    await client.connect();
    await client.query(`drop database ${name} with (force)`);
    await client.end();
  };
  target.searchParams.set('options', `-c search_path=${schema}`);
  return target.toString();
}

describe.each(dialects())('online backup of the data folder on %s', (dialect) => {
  let t: TestApp;
  const scratch = mkdtempSync(join(tmpdir(), 'kw-backup-'));

  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(async () => {
    await t.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('copies SQLite and DuckDB while ingest goes on, and a fresh folder restores every row and point', async () => {
    const api = apiAs(() => t.app, (await login(t.app)).token);
    const plant = await seedPlant(api, 3);
    const start = t.clock.now() - 3_600_000;
    const send = async (thing: { token: string }, b: number) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/telemetry',
        headers: { 'x-device-token': thing.token },
        payload: Array.from({ length: PER_BATCH }, (_, j) => ({
          ts: start + (b * PER_BATCH + j) * 1000,
          values: { P: b * PER_BATCH + j },
        })),
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    // Acknowledged before the backup starts: every one of these must be in it.
    for (let b = 0; b < 5; b++) for (const thing of plant.things) await send(thing, b);

    // Writes go on while the copy is made; what the copy holds of them is whole batches.
    let writing = true;
    let next = 5;
    const writer = (async () => {
      while (writing && next < 30) {
        const b = next++;
        for (const thing of plant.things) await send(thing, b);
      }
    })();
    const dir = join(scratch, 'nightly', 'one');
    const res = await t.app.inject({ method: 'POST', url: '/api/ops/backup', payload: { dir } });
    writing = false;
    await writer;
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json().data;
    const names = result.files.map((f: { name: string }) => f.name);
    expect(names).toContain('telemetry.duckdb');
    expect(names).toContain('secret.key');
    if (dialect === 'sqlite') {
      expect(names).toContain('kilowatch.db');
      expect(result.elsewhere).toEqual([]);
    } else {
      expect(result.elsewhere).toEqual(['database: postgres (pg_dump)']);
    }
    expect(JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')).files).toEqual(result.files);

    // The same folder cannot be written twice, nor a relative path, nor a folder inside DATA_DIR.
    const again = await t.app.inject({ method: 'POST', url: '/api/ops/backup', payload: { dir } });
    expect(again.statusCode).toBe(409);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/ops/backup', payload: { dir: 'rel/dir' } }))
        .statusCode,
    ).toBe(400);
    const inside = await t.app.inject({
      method: 'POST',
      url: '/api/ops/backup',
      payload: { dir: join(t.config.dataDir, 'b') },
    });
    expect(inside.statusCode).toBe(400);
    const remote = await t.app.inject({
      method: 'POST',
      url: '/api/ops/backup',
      payload: { dir: join(scratch, 'remote') },
      remoteAddress: '10.9.8.7',
    });
    expect(remote.statusCode).toBe(403);
    expect(existsSync(join(scratch, 'remote'))).toBe(false);

    // Restore: a fresh data folder holding the backup's files; on PostgreSQL, a new database from pg_dump.
    const fresh = join(scratch, 'restored');
    mkdirSync(fresh);
    for (const name of readdirSync(dir))
      if (name !== MANIFEST) copyFileSync(join(dir, name), join(fresh, name));
    const restored = loadConfig({
      DATA_DIR: fresh,
      LOG_LEVEL: 'silent',
      MQTT_PORT: '0',
      WEB_DIST: join(fresh, 'no-web'),
      PLANT_TIMEZONE: t.config.telemetry.timeZone,
      ...(t.config.database.kind === 'postgres'
        ? { DATABASE_URL: await pgDumpAndRestore(t.config.database.url) }
        : {}),
    });
    expect(restored.jwtSecret).toBe(t.config.jwtSecret);
    const app = await buildApp(restored, { now: t.clock.now });
    try {
      const again = apiAs(() => app, (await login(app)).token);
      const things = (await again.get('/api/thing/things?page=1&pageSize=50')).body.data;
      expect(things.total).toBe(plant.things.length + 1);
      for (const thing of plant.things) {
        const points = await app.telemetry.points(
          { thingId: thing.id, metric: 'P' },
          start,
          start + 3_600_000,
          10_000,
        );
        const count = points.length;
        // Every point acknowledged before the backup, and whole batches of those written during it.
        expect(count).toBeGreaterThanOrEqual(5 * PER_BATCH);
        expect(count % PER_BATCH).toBe(0);
        points.forEach((p, i) => {
          expect(p.ts).toBe(start + i * 1000);
          expect(p.value).toBe(i);
        });
      }
    } finally {
      await app.close();
      await dropRestored();
    }
  }, 180_000);
});
