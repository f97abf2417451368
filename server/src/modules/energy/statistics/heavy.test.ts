import { monitorEventLoopDelay } from 'node:perf_hooks';
import { EXPORT_MAX_CELLS, STATISTICS_MAX_CELLS } from '@kilowatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, dialects, login, type TestApp } from '../../../../test/helpers.ts';
import { type Client, client, editorWith } from '../../system/testing.ts';
import { seedDevices } from '../../things/testing.ts';

const DAY = 86_400_000;
/** 41 meters over 3,652 days by day: 149,733 rows × 10 columns, the largest ERP export allowed. */
const METERS = 41;
const DAYS = 3652;

/**
 * Heavy requests (docs/robustness.md#heavy-requests): the largest allowed export leaves the event
 * loop answering, the cost bounds refuse before any work, and the slots answer 429 past them.
 */
const p99 = (xs: readonly number[]) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))] ?? 0;

/**
 * The event loop's lag while `work` runs, two ways. `wallP99`: monitorEventLoopDelay's p99, the
 * delay a timer saw. `held`: per 5 ms tick, the delay no longer than the CPU time the process
 * spent meanwhile, i.e. what the work itself held the loop for. On a machine whose cores other
 * processes keep busy, a timer waits for the CPU too (the idle baseline shows how long); the held
 * lag is what the code answers for.
 */
async function lagWhile(work: () => Promise<unknown>) {
  const wall = monitorEventLoopDelay({ resolution: 10 });
  const held: number[] = [];
  let last = performance.now();
  let cpu = process.cpuUsage();
  const tick = setInterval(() => {
    const now = performance.now();
    const used = process.cpuUsage(cpu);
    held.push(Math.max(0, Math.min(now - last - 5, (used.user + used.system) / 1000)));
    last = now;
    cpu = process.cpuUsage();
  }, 5);
  wall.enable();
  await work();
  // Both sample at their next tick: the last stretch of the work is counted too.
  await new Promise((resolve) => setTimeout(resolve, 30));
  wall.disable();
  clearInterval(tick);
  return { wallP99: wall.percentile(99) / 1e6, heldP99: p99(held), heldMax: Math.max(0, ...held) };
}

describe.each(dialects())('heavy statistics requests on %s', (dialect) => {
  let t: TestApp;
  let admin: Client;
  let editor: { id: number; api: Client };
  let editorToken: string;
  let regionId: number;
  let meterIds: number[];
  const end = Date.parse('2026-11-01T00:00:00Z');
  const start = end - DAYS * DAY;
  const erp = (extra: Record<string, unknown> = {}, language = 'zh') =>
    t.app.inject({
      method: 'POST',
      url: '/api/statistics/report/erp/xlsx',
      headers: { ...bearer(editorToken), 'accept-language': language },
      payload: {
        resourceType: 'region',
        resourceIds: [regionId],
        metricIdentifier: 'EP',
        period: 'month',
        startTime: start,
        endTime: end,
        groupByTime: 'day',
        ...extra,
      },
    });

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = client(() => t.app, (await login(t.app)).token);
    const devices = await seedDevices(admin, METERS);
    meterIds = devices.things.map((x: { id: number }) => x.id);
    regionId = (await admin.post('/api/regions', { name: '大区' })).body.data.id;
    await admin.post(`/api/regions/${regionId}/bindings`, { thingIds: meterIds });
    // Readings over the last 60 days (the raw retention); the older days export as empty rows.
    const points = [];
    for (const thingId of meterIds) {
      for (let d = DAYS - 60; d <= DAYS; d++) {
        points.push({ thingId, metric: 'EP', ts: start + d * DAY, value: d * 10 + thingId });
      }
    }
    await t.app.telemetry.write(points);
    // An editor with no grants: exports are open to every logged-in user.
    editor = await editorWith(() => t.app, admin, 'heavy-editor');
    editorToken = (await login(t.app, 'heavy-editor', 'Editor12')).token;
  }, 120_000);
  afterAll(() => t.close());

  it('writes the largest allowed ERP export while the loop lags under 100 ms at p99 and health answers', async () => {
    const idle = await lagWhile(() => new Promise((resolve) => setTimeout(resolve, 1000)));
    const health: number[] = [];
    let exporting = true;
    const probe = (async () => {
      while (exporting) {
        const at = performance.now();
        const res = await t.app.inject({ method: 'GET', url: '/api/health' });
        expect(res.statusCode).toBe(200);
        health.push(performance.now() - at);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    let res: Awaited<ReturnType<typeof erp>> | undefined;
    const lag = await lagWhile(async () => {
      res = await erp();
    });
    exporting = false;
    await probe;

    expect(res?.statusCode, res?.body.slice(0, 200)).toBe(200);
    const rows = METERS * DAYS + 1;
    expect(rows * 10).toBeLessThanOrEqual(EXPORT_MAX_CELLS);
    expect(Number(res?.headers['x-export-rows'])).toBe(rows);
    health.sort((a, b) => a - b);
    const healthP99 = p99(health);
    console.info(
      `ERP export of ${rows} rows: loop held p99 ${lag.heldP99.toFixed(1)} ms (max ${lag.heldMax.toFixed(1)}); ` +
        `wall lag p99 ${lag.wallP99.toFixed(1)} ms (idle ${idle.wallP99.toFixed(1)}); health median ${(health[Math.floor(health.length / 2)] ?? 0).toFixed(1)} ms, p99 ${healthP99.toFixed(1)} ms over ${health.length} probes`,
    );
    expect(lag.heldP99).toBeLessThan(100);
    // Health answered all along; its p99, like the wall-clock lag, also waits for a core on a busy
    // machine (PostgreSQL's process too), so the median is what the code answers for here.
    expect(health.length).toBeGreaterThan(10);
    expect(health[Math.floor(health.length / 2)]).toBeLessThan(100);
  }, 180_000);

  it('refuses an export past the cell bound before it starts, in the caller’s language', async () => {
    // A year by hour: 41 × 8,760 + 1 rows × 10 columns is past 1,500,000 cells.
    const byHour = { startTime: end - 365 * DAY, groupByTime: 'hour' };
    const at = performance.now();
    const refused = await erp(byHour);
    expect(performance.now() - at).toBeLessThan(1000);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      '导出太大：359161 行 × 10 列超过 1500000 个单元格的上限，请缩短时间范围、放大时间粒度或减少对象',
    );
    const en = await erp(byHour, 'en');
    expect(en.json().message).toMatch(
      /^The export is too large: 359161 rows × 10 columns exceed the limit of 1500000/,
    );
    const es = await erp(byHour, 'es');
    expect(es.json().message).toMatch(/^La exportación es demasiado grande: 359161 filas × 10 columnas/);
  });

  it('refuses a statistics read past its value bound', async () => {
    // 41 meters by day over 2,440 days: 100,040 values, one pass of the loop too many.
    const days = Math.floor(STATISTICS_MAX_CELLS / METERS) + 1;
    const body = {
      resourceType: 'thing',
      resourceIds: meterIds,
      metricIdentifier: 'EP',
      period: 'month',
      startTime: end - days * DAY,
      endTime: end,
      groupByTime: 'day',
    };
    const refused = await editor.api.post('/api/statistics/range', body);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain(String(STATISTICS_MAX_CELLS));
    const allowed = await editor.api.post('/api/statistics/range', {
      ...body,
      startTime: end - (days - 1) * DAY,
    });
    expect(allowed.status).toBe(200);
    expect(allowed.body.data.series).toHaveLength(METERS);
    // A region counts its things: the same 41 meters as one series weigh the same.
    const region = await editor.api.post('/api/statistics/range', {
      ...body,
      resourceType: 'region',
      resourceIds: [regionId],
    });
    expect(region.status).toBe(400);
  });

  it('answers 429 with Retry-After past the user’s slots and past the server’s', async () => {
    const small = { startTime: end - 7 * DAY };
    const mine = [t.app.heavy.enter(editor.id), t.app.heavy.enter(editor.id)];
    const busy = await erp(small, 'en');
    expect(busy.statusCode).toBe(429);
    expect(busy.headers['retry-after']).toBe('5');
    expect(busy.json()).toMatchObject({ code: 'BUSY' });
    expect(busy.json().message).toMatch(/^You already have 2 exports/);
    expect((await erp(small, 'es')).json().message).toMatch(/^Ya tiene 2 exportaciones/);
    // Another user still has slots while the server has some.
    const others = await admin.post('/api/statistics/range', {
      resourceType: 'region',
      resourceIds: [regionId],
      metricIdentifier: 'EP',
      period: 'day',
    });
    expect(others.status).toBe(200);
    for (const leave of mine) leave();
    expect((await erp(small)).statusCode).toBe(200);

    const all = [1, 2, 3, 4].map((user) => t.app.heavy.enter(1000 + user));
    const full = await erp(small);
    expect(full.statusCode).toBe(429);
    expect(full.json().message).toContain('服务器正同时处理 4 个');
    for (const leave of all) leave();
    expect(t.app.heavy.running()).toBe(0);
    expect((await erp(small)).statusCode).toBe(200);
    // Slots are given back when the answer is done, refused answers included.
    expect(t.app.heavy.running()).toBe(0);
  });
});
