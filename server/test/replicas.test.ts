import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Plant, seedPlant } from '../src/ingest/testing.ts';
import { type Api, apiAs } from '../src/modules/things/testing.ts';
import { bearer, buildTestApp, login, loginRequest, type TestApp } from './helpers.ts';

/**
 * Two server processes on one PostgreSQL database, as replicas behind a load balancer
 * (docs/cluster.md): whichever one a request reaches answers it the same. Each has its own data
 * folder (and DuckDB store); what they share is the database.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('two replicas on one PostgreSQL database', () => {
  let t: TestApp;
  let b: FastifyInstance;
  let bDir: string;
  let api: Api;
  let plant: Plant;
  const a = () => t.app;

  const waitFor = async (check: () => Promise<boolean>, ms: number): Promise<number> => {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return Date.now() - started;
  };
  const send = async (app: FastifyInstance, token: string, values: Record<string, number | string>) => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/${token}/telemetry`,
      payload: { ts: t.clock.now(), values },
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    t = await buildTestApp('postgres');
    bDir = mkdtempSync(join(tmpdir(), 'kilowatch-replica-'));
    // No JWT_SECRET: each data folder has its own key, and the database's is the one both use.
    b = await buildApp({ ...t.config, dataDir: bDir, jwtSecret: 'b'.repeat(48) }, { now: t.clock.now });
    api = apiAs(a, (await login(a())).token);
    plant = await seedPlant(api, 3);
  });
  afterAll(async () => {
    await b?.close();
    rmSync(bDir, { recursive: true, force: true });
    await t?.close();
  });

  it('shares sessions: a login on one is good on the other, refresh and logout too', async () => {
    const pair = await login(a());
    expect(
      (await b.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(pair.token) })).statusCode,
    ).toBe(200);
    const refreshed = await b.inject({
      method: 'POST',
      url: '/api/auth/token',
      payload: { refreshToken: pair.refreshToken },
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const next = refreshed.json().data as { token: string; refreshToken: string };
    expect(
      (await a().inject({ method: 'GET', url: '/api/auth/me', headers: bearer(next.token) })).statusCode,
    ).toBe(200);
    // The first refresh token was spent on B: presented to A it is refused (and, as a copied
    // token, ends the session on both).
    await b.inject({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken: next.refreshToken } });
    expect(
      (
        await a().inject({
          method: 'POST',
          url: '/api/auth/token',
          payload: { refreshToken: pair.refreshToken },
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (await a().inject({ method: 'GET', url: '/api/auth/me', headers: bearer(next.token) })).statusCode,
    ).toBe(401);
  });

  it('throttles a guesser whichever replica each guess reaches', async () => {
    const guess = (app: FastifyInstance) => loginRequest(app, 'nobody', 'not-it');
    // Three free failures per (source, name), then a delay: spread over both replicas.
    const statuses = [];
    for (const app of [a(), b, a(), b, a()]) statuses.push((await guess(app)).statusCode);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
  });

  it('opens the live stream on one replica with a ticket from the other, and streams values ingested anywhere within a second', async () => {
    const { token } = await login(a());
    const ticket = await a().inject({
      method: 'POST',
      url: '/api/query/live/ticket',
      headers: bearer(token),
    });
    expect(ticket.statusCode).toBe(200);
    const address = await b.listen({ port: 0, host: '127.0.0.1' });
    const meter = plant.things[0] as Plant['things'][number];
    const controller = new AbortController();
    const res = await fetch(
      `${address}/api/query/live?thingIds=${meter.id}&ticket=${ticket.json().data.ticket as string}`,
      { signal: controller.signal },
    );
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    const sentAt = Date.now();
    await send(a(), meter.token, { FW: 'v-from-a' });
    while (!text.includes('v-from-a')) {
      const read = await reader.read();
      if (read.done) break;
      text += new TextDecoder().decode(read.value);
      expect(Date.now() - sentAt).toBeLessThan(1000);
    }
    expect(text).toContain('v-from-a');
    controller.abort();
  });

  it('drops a thing from the other replica’s catalog within a second of its deletion', async () => {
    const meter = plant.things[2] as Plant['things'][number];
    expect((await b.services.catalog.thingByToken(meter.token))?.id).toBe(meter.id);
    expect((await api.del(`/api/thing/things/${meter.id}`)).status).toBe(200);
    // The cache's own expiry is 5 s: only the notice can make it this fast.
    const took = await waitFor(
      async () => (await b.services.catalog.thingByToken(meter.token)) === undefined,
      1000,
    );
    expect(took).toBeLessThan(1000);
  });

  it('evaluates each monitor on one replica; when that one’s session dies the other resumes it without a second alarm', async () => {
    const meter = plant.things[1] as Plant['things'][number];
    const rule = (
      await api.post('/api/alarm/rules', {
        name: '功率过高',
        ability: 'P',
        condition: { kind: 'threshold', op: '>', value: 80 },
        onDelay: 0,
        offDelay: 0,
        deadband: 2,
        severity: 'major',
        message: '{thing} {value}',
        categoryId: plant.categoryId,
      })
    ).body.data;
    await api.post(`/api/alarm/rules/${rule.id}/state`, { action: 'enable' });
    await api.post('/api/alarm/monitors/batch', {
      appliedType: 'rule',
      appliedId: rule.id,
      targets: [{ type: 'thing', id: meter.id }],
    });
    const monitorId = async (): Promise<number> =>
      ((await api.get('/api/alarm/monitors')).body.data.list as { id: number }[])[0]?.id ?? -1;
    const runners = () => [a().services.alarmRunner, b.services.alarmRunner];
    // The partitions settle between the two, and the change reached both runners.
    await waitFor(async () => runners().reduce((n, r) => n + r.size(), 0) === 1, 15_000);
    const history = async () =>
      (await api.get(`/api/alarm/history?thingId=${meter.id}`)).body.data.list as { id: number }[];

    t.clock.advance(1000);
    await send(b, meter.token, { P: 95 });
    await waitFor(async () => (await history()).length === 1, 2000);

    const owner = runners().findIndex((r) => r.size() === 1);
    // The owner's coordination session dies (what kill -9 does to it): its locks are free at once.
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const schema = new URL(t.config.database.kind === 'postgres' ? t.config.database.url : '').searchParams
      .get('options')
      ?.replace('-c search_path=', '');
    const holders = await admin.query<{ pid: number; name: string }>(
      `select distinct l.pid, a.application_name as name from pg_locks l join pg_stat_activity a using (pid)
       where l.locktype = 'advisory' and l.classid = (hashtext('kilowatch partitions ' || $1::text))::oid
       and l.objid = $2`,
      [schema, (await monitorId()) % 64],
    );
    expect(holders.rows).toHaveLength(1);
    await admin.query('select pg_terminate_backend($1)', [holders.rows[0]?.pid]);
    await admin.end();
    // The owner learns at once that its locks are gone and stops evaluating; whichever replica
    // takes the partition next (the other, or this one once it has reconnected) resumes it.
    await waitFor(async () => runners()[owner]?.size() === 0, 1000);
    const failover = await waitFor(async () => runners().reduce((n, r) => n + r.size(), 0) === 1, 15_000);
    expect(failover).toBeLessThan(15_000);

    // Still above the limit: the new owner knows the alarm is open and raises nothing new.
    t.clock.advance(1000);
    await send(a(), meter.token, { P: 96 });
    t.clock.advance(1000);
    await send(b, meter.token, { P: 50 });
    await waitFor(
      async () =>
        (await api.get(`/api/alarm/history?thingId=${meter.id}`)).body.data.list[0]?.returnedAt != null,
      2000,
    );
    expect(await history()).toHaveLength(1);
  });
});
