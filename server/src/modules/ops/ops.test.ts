import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, buildTestApp, dialects, login, type TestApp } from '../../../test/helpers.ts';
import { seedPlant } from '../../ingest/testing.ts';
import { apiAs } from '../things/testing.ts';

/** The value of one sample line of the exposition text (undefined when absent). */
const sample = (text: string, line: string): number | undefined => {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
};

describe.each(dialects())('operating endpoints on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts ingest by path, store writes and query latency by route in GET /metrics', async () => {
    const api = apiAs(() => t.app, (await login(t.app)).token);
    const plant = await seedPlant(api, 1);
    const meter = plant.things[0] as { token: string; id: number };
    const ts = t.clock.now() - 60_000;
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/telemetry',
      headers: { 'x-device-token': meter.token },
      payload: [
        { ts, values: { P: 1, EP: 2, nope: 3 } },
        { ts: ts + 1000, values: { P: 4 } },
      ],
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/telemetry',
      headers: { 'x-device-token': 'not-a-token' },
      payload: [{ ts, values: { P: 1 } }],
    });
    expect(bad.statusCode).toBe(401);
    const query = await api.post('/api/query/data', {
      resourceType: 'thing',
      resourceId: meter.id,
      metricIdentifier: 'P',
      startTime: ts - 60_000,
      endTime: ts + 60_000,
    });
    expect(query.status).toBe(200);

    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    expect(sample(text, 'kilowatch_ingest_points_total{path="http"}')).toBe(3);
    expect(sample(text, 'kilowatch_ingest_rejected_total{path="http",reason="unknown metric"}')).toBe(1);
    expect(sample(text, 'kilowatch_store_points_written_total')).toBe(3);
    expect(sample(text, 'kilowatch_store_write_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(
      sample(
        text,
        'kilowatch_http_request_duration_seconds_count{route="/api/query/data",method="POST",status="2xx"}',
      ),
    ).toBe(1);
    expect(sample(text, 'kilowatch_store_read_seconds_count{op="downsample"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'kilowatch_sse_clients')).toBe(0);
    expect(sample(text, 'kilowatch_replica_leader')).toBe(1);
    expect(sample(text, 'kilowatch_alarm_engine_lag_seconds')).toBe(0);
    expect(sample(text, 'kilowatch_notification_backlog')).toBe(0);
    // The embedded store's memory: DuckDB's by tag, and the hour and day rows kept (none read here).
    expect(sample(text, 'kilowatch_telemetry_memory_bytes{part="rollup_cache"}')).toBe(0);
    expect(text).toMatch(/^kilowatch_telemetry_memory_bytes\{part="duckdb_[a-z_]+"\} [1-9]/m);
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('counts open live streams', async () => {
    const { token } = await login(t.app);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const things = (await apiAs(() => t.app, token).get('/api/thing/things?page=1&pageSize=1')).body.data
      .list;
    const ticket = (
      await t.app.inject({ method: 'POST', url: '/api/query/live/ticket', headers: bearer(token) })
    ).json().data.ticket;
    const controller = new AbortController();
    const stream = await fetch(`${address}/api/query/live?thingIds=${things[0].id}&ticket=${ticket}`, {
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    const scrape = async () => (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(sample(await scrape(), 'kilowatch_sse_clients')).toBe(1);
    controller.abort();
    await vi.waitFor(async () => expect(sample(await scrape(), 'kilowatch_sse_clients')).toBe(0));
  });

  it('lets only this machine read /metrics when OPS_TOKEN is unset', async () => {
    const remote = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3' });
    expect(remote.statusCode).toBe(403);
    expect(remote.json().message).toMatch(/OPS_TOKEN/);
    // A reverse proxy on the same host connects from loopback but says it forwarded the request.
    const proxied = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(proxied.statusCode).toBe(403);
  });

  it('answers liveness, and readiness naming each dependency, then draining', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toMatchObject({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.json()).toMatchObject({
      status: 'ready',
      checks: [
        { name: 'database', kind: dialect, state: 'up' },
        { name: 'telemetry', kind: 'duckdb', state: 'up' },
        { name: 'broker', kind: 'off', state: 'off' },
      ],
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).json()).toMatchObject({
      data: { status: 'ok', db: dialect },
    });
    t.app.services.ops.readiness.drain();
    const draining = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(draining.statusCode).toBe(503);
    expect(draining.json().status).toBe('draining');
  });
});

describe('operating endpoints with OPS_TOKEN, a broker and a store that is down', () => {
  const TOKEN = 'ops-token-0123456789';
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite', {
      env: { OPS_TOKEN: TOKEN, TELEMETRY_URL: undefined },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('asks for the bearer token from everyone, loopback included', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer ops-token-XXXXXXXXXX' },
    });
    expect(wrong.statusCode).toBe(403);
    const right = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '10.1.2.3',
      headers: { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': '203.0.113.9' },
    });
    expect(right.statusCode).toBe(200);
    expect(right.body).toContain('kilowatch_ingest_points_total');
  });

  it('is unready, naming the telemetry store, once the store is closed', async () => {
    await t.app.telemetry.close();
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    const body = ready.json();
    expect(body.status).toBe('unready');
    expect(body.checks[1]).toMatchObject({ name: 'telemetry', state: 'down' });
    expect(body.checks[1].detail).toMatch(/closed/);
    expect(body.checks[0]).toMatchObject({ name: 'database', state: 'up' });
  });
});
