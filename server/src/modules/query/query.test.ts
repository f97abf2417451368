import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, dialects, login, type TestApp } from '../../../test/helpers.ts';
import { type Plant, seedPlant } from '../../ingest/testing.ts';
import { type Api, apiAs } from '../things/testing.ts';

const S = 1000;
const MIN = 60 * S;
const HOUR = 60 * MIN;
/** 10:00 on 2026-11-22 in the plant's zone (Asia/Shanghai, UTC+8); the test clock is 16:00. */
const H = Date.parse('2026-11-22T02:00:00Z');

describe.each(dialects())('query API on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let plant: Plant;
  let r1: number;
  let r2: number;
  const m1 = () => plant.things[0]!;
  const m2 = () => plant.things[1]!;
  const data = async (query: Record<string, unknown>, qs = '') => {
    const res = await api.post(`/api/query/data${qs}`, query);
    return res;
  };
  const values = async (query: Record<string, unknown>) => {
    const res = await data(query);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.data.result as { key: number; value: number | null }[]).map((p) => [p.key, p.value]);
  };
  const minuteOf = (q: Record<string, unknown>) => ({
    resourceType: 'thing',
    resourceId: m1().id,
    metricIdentifier: 'P',
    groupByTime: 'minute',
    groupByInterval: 1,
    startTime: H,
    endTime: H + 3 * MIN,
    ...q,
  });

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { PLANT_TIMEZONE: 'Asia/Shanghai' } });
    api = apiAs(() => t.app, (await login(t.app)).token);
    plant = await seedPlant(api, 2);
    r1 = (await api.post('/api/regions', { name: '一车间' })).body.data.id;
    r2 = (await api.post('/api/regions', { name: '一号线', parentId: r1 })).body.data.id;
    expect(
      (await api.post(`/api/regions/${r1}/bindings`, { thingIds: [m1().id, plant.pump.id] })).status,
    ).toBe(200);
    expect((await api.post(`/api/regions/${r2}/bindings`, { thingIds: [m2().id] })).status).toBe(200);
    const p = (thingId: number, metric: string, list: [number, number][]) =>
      list.map(([ts, value]) => ({ thingId, metric, ts, value }));
    await t.app.telemetry.write([
      ...p(m1().id, 'P', [
        [H, 10],
        [H + 30 * S, 20],
        [H + 60 * S, 30],
        [H + 90 * S, 40],
        [H + 120 * S, 50],
      ]),
      ...p(m2().id, 'P', [
        [H, 1],
        [H + 60 * S, 2],
      ]),
      ...p(plant.pump.id, 'P', [[H, 100]]),
      // An energy counter that resets to 0 after 120 kWh.
      ...p(m1().id, 'EP', [
        [H, 100],
        [H + 10 * S, 110],
        [H + 20 * S, 120],
        [H + 30 * S, 5],
        [H + 40 * S, 15],
      ]),
    ]);
  });
  afterAll(async () => {
    await t.close();
  });

  it('buckets by minute; a point on an edge opens the next bucket; every aggregator', async () => {
    const expected: Record<string, number[]> = {
      avg: [15, 35, 50],
      sum: [30, 70, 50],
      max: [20, 40, 50],
      min: [10, 30, 50],
      count: [2, 2, 1],
      first: [10, 30, 50],
      last: [20, 40, 50],
    };
    for (const [aggregator, want] of Object.entries(expected)) {
      expect(await values(minuteOf({ aggregator })), aggregator).toEqual([
        [H, want[0]],
        [H + MIN, want[1]],
        [H + 2 * MIN, want[2]],
      ]);
    }
    // Default: the ability's aggregator (avg); unit from the ability; resolution reported (minutes
    // above the minute horizon come from raw points).
    const res = await data(minuteOf({}));
    expect(res.body.data).toMatchObject({ unit: 'kW', resolution: 'raw', seq: null });
    expect(res.body.data.result[0]).toEqual({ key: H, value: 15, group: '电表1', complete: true });
    // A bucket with no data is null (count 0) and incomplete.
    const gap = await data(minuteOf({ startTime: H + 3 * MIN, endTime: H + 4 * MIN }));
    expect(gap.body.data.result).toEqual([
      { key: H + 3 * MIN, value: null, group: '电表1', complete: false },
    ]);
  });

  it('answers consumption (delta) of counters with resets by default when grouping by time', async () => {
    const q = {
      ...minuteOf({}),
      metricIdentifier: 'EP',
      groupByTime: 'hour',
      startTime: H,
      endTime: H + HOUR,
    };
    expect(await values(q)).toEqual([[H, 10 + 10 + 5 + 10]]);
    expect(await values({ ...q, aggregator: 'last' })).toEqual([[H, 15]]);
    expect(await values({ ...q, aggregator: 'max' })).toEqual([[H, 120]]);
  });

  it('aggregates regions over bound things: categoryId, successor, combine', async () => {
    const region = (q: Record<string, unknown>) =>
      values(minuteOf({ resourceType: 'region', resourceId: r1, ...q }));
    expect(await region({})).toEqual([
      [H, 115],
      [H + MIN, 35],
      [H + 2 * MIN, 50],
    ]);
    expect(await region({ categoryId: plant.categoryId })).toEqual([
      [H, 15],
      [H + MIN, 35],
      [H + 2 * MIN, 50],
    ]);
    expect(await region({ categoryId: plant.categoryId, successor: true })).toEqual([
      [H, 16],
      [H + MIN, 37],
      [H + 2 * MIN, 50],
    ]);
    expect(await region({ categoryId: plant.categoryId, successor: true, combine: 'avg' })).toEqual([
      [H, 8],
      [H + MIN, 18.5],
      [H + 2 * MIN, 50],
    ]);
    const none = await data(
      minuteOf({
        resourceType: 'region',
        resourceId: r1,
        successor: true,
        combine: 'none',
        categoryId: plant.categoryId,
      }),
    );
    expect(none.body.data.result.map((p: { group: string; value: number }) => [p.group, p.value])).toEqual([
      ['电表1', 15],
      ['电表1', 35],
      ['电表1', 50],
      ['电表2', 1],
      ['电表2', 2],
      ['电表2', null],
    ]);
    const sum = await data(minuteOf({ resourceType: 'region', resourceId: r1 }));
    expect(sum.body.data.result[0].group).toBe('一车间');
    // Without groupByTime a region's sum is bucketed (raw points of several things do not line up).
    expect(
      await region({ categoryId: plant.categoryId, successor: true, groupByTime: undefined, maxPoints: 10 }),
    ).toEqual([
      [H, 16],
      [H + MIN, 37],
      [H + 2 * MIN, 50],
    ]);
  });

  it('names the things that lacked data in each incomplete bucket of a combined region series', async () => {
    const res = await data(
      minuteOf({ resourceType: 'region', resourceId: r1, categoryId: plant.categoryId, successor: true }),
    );
    expect(res.status).toBe(200);
    const last = res.body.data.result.find((p: { key: number }) => p.key === H + 2 * MIN);
    expect(last).toMatchObject({ value: 50, complete: false, missing: ['电表2'], missingCount: 1 });
    for (const p of res.body.data.result as { complete: boolean; missing?: string[] }[]) {
      // Complete buckets carry no list (the answer stays as it was for them).
      if (p.complete) expect(p.missing).toBeUndefined();
      else expect(p.missing?.length).toBeGreaterThan(0);
    }
    // The plant's time zone travels with the answer: exports and labels follow its calendar.
    expect(res.body.data.timeZone).toBe('Asia/Shanghai');
  });

  it('echoes seq, applies formula and scale, answers raw points without groupByTime', async () => {
    expect((await data(minuteOf({}), '?seq=1732262400123')).body.data.seq).toBe('1732262400123');
    expect((await data(minuteOf({ seq: 'body' }))).body.data.seq).toBe('body');
    expect((await data(minuteOf({ seq: 'body' }), '?seq=query')).body.data.seq).toBe('query');
    expect(await values(minuteOf({ formula: '(x * 2 + 1) / 3', scale: 2 }))).toEqual([
      [H, 10.33],
      [H + MIN, 23.67],
      [H + 2 * MIN, 33.67],
    ]);
    expect(await values(minuteOf({ formula: 'x / 0' }))).toEqual([
      [H, null],
      [H + MIN, null],
      [H + 2 * MIN, null],
    ]);
    for (const formula of ['x ** 2', 'eval(1)', 'x +', '(x', 'process.exit()']) {
      const res = await data(minuteOf({ formula }));
      expect(res.status, formula).toBe(400);
      expect(res.body.code).toBe('BAD_REQUEST');
    }
    const raw = await data(minuteOf({ groupByTime: undefined, groupByInterval: undefined }));
    expect(raw.body.data.resolution).toBe('raw');
    expect(raw.body.data.result.map((p: { key: number; value: number }) => [p.key, p.value])).toEqual([
      [H, 10],
      [H + 30 * S, 20],
      [H + 60 * S, 30],
      [H + 90 * S, 40],
      [H + 120 * S, 50],
    ]);
  });

  it('covers a period (day, month, year) of the plant time zone around startTime', async () => {
    const day = await data(minuteOf({ period: 'day', groupByTime: 'hour', endTime: undefined }));
    expect(day.status).toBe(200);
    const result = day.body.data.result as { key: number; value: number | null }[];
    expect(result).toHaveLength(24);
    expect(result[0]?.key).toBe(Date.parse('2026-11-21T16:00:00Z'));
    expect(result[10]).toMatchObject({ key: H, value: 30 });
    expect(result.filter((p) => p.value !== null)).toHaveLength(1);

    const month = (await data(minuteOf({ period: 'month', groupByTime: 'day', endTime: undefined }))).body
      .data.result;
    expect(month).toHaveLength(30);
    expect(month[0].key).toBe(Date.parse('2026-10-31T16:00:00Z'));
    expect(month[21]).toMatchObject({ key: Date.parse('2026-11-21T16:00:00Z'), value: 30 });

    // Without startTime: the period around now (the test clock, 2026-11-22 16:00 local).
    const year = (
      await data(minuteOf({ period: 'year', groupByTime: 'month', startTime: undefined, endTime: undefined }))
    ).body.data.result;
    expect(year).toHaveLength(12);
    expect(year[0].key).toBe(Date.parse('2025-12-31T16:00:00Z'));
    expect(year[10]).toMatchObject({ key: Date.parse('2026-10-31T16:00:00Z'), value: 30 });
    // Quarters: three months a bucket.
    const quarters = (
      await data(
        minuteOf({
          period: 'year',
          groupByTime: 'month',
          groupByInterval: 3,
          aggregator: 'count',
          endTime: undefined,
        }),
      )
    ).body.data.result;
    expect(quarters.map((p: { key: number; value: number }) => p.value)).toEqual([0, 0, 0, 5]);
    expect(quarters[3].key).toBe(Date.parse('2026-09-30T16:00:00Z'));
  });

  it('refuses bad ranges, too many buckets, unknown resources and metrics', async () => {
    const status = async (q: Record<string, unknown>) => (await data(minuteOf(q))).status;
    expect(await status({ endTime: H })).toBe(400);
    expect(await status({ endTime: H - 1 })).toBe(400);
    expect(await status({ startTime: H - 11 * 366 * 86_400_000 })).toBe(400);
    const many = await data(minuteOf({ groupByTime: 'second', endTime: H + 86_400_000 }));
    expect(many.status).toBe(400);
    expect(many.body.message).toContain('10000');
    expect(await status({ resourceId: 99999 })).toBe(404);
    expect(await status({ resourceType: 'region', resourceId: 99999 })).toBe(404);
    expect(await status({ metricIdentifier: 'T' })).toBe(422);
    expect(await status({ resourceType: 'region', resourceId: r2, metricIdentifier: 'T' })).toBe(422);
    const unknown = await data(minuteOf({ metricIdentifier: 'NOPE' }), '');
    expect(unknown.body.code).toBe('UNPROCESSABLE');
  });

  it('answers real-time status of a thing and of a region', async () => {
    await t.app.ingest.service.accept(
      { id: m1().id, identifier: m1().identifier, name: m1().name },
      [{ index: 0, ts: H + 5 * S, values: [['FW', 'v1.0']] }],
      'http',
    );
    const thing = await api.get(`/api/query/realtime?resourceId=${m1().id}`);
    expect(thing.status).toBe(200);
    expect(thing.body.data).toEqual([
      { operation: 'P', name: '有功功率', unit: 'kW', value: 50, ts: H + 120 * S, thingId: m1().id },
      { operation: 'EP', name: '有功电能', unit: 'kWh', value: 15, ts: H + 40 * S, thingId: m1().id },
      { operation: 'RUN', name: '运转状态', unit: '', value: null, ts: null, thingId: m1().id },
      { operation: 'ON', name: '合闸', unit: '', value: null, ts: null, thingId: m1().id },
      { operation: 'FW', name: '固件版本', unit: '', value: 'v1.0', ts: H + 5 * S, thingId: m1().id },
    ]);
    const region = await api.get(`/api/query/realtime?resourceType=region&resourceId=${r1}`);
    expect(region.body.data).toHaveLength(7);
    const narrowed = await api.get(
      `/api/query/realtime?resourceType=region&resourceId=${r1}&categoryId=${plant.categoryId}&successor=true`,
    );
    expect(new Set(narrowed.body.data.map((s: { thingId: number }) => s.thingId))).toEqual(
      new Set([m1().id, m2().id]),
    );
    expect((await api.get('/api/query/realtime?resourceId=99999')).status).toBe(404);
  });

  it('lists board cabinets of a region with attributes, latest values and last seen', async () => {
    const res = await api.get(`/api/board/components/${r1}?successor=true`);
    expect(res.status).toBe(200);
    const cabinets = res.body.data as {
      thingId: number;
      attrMap: Record<string, { value: unknown }>;
      lastSeenAgo: number;
    }[];
    expect(cabinets.map((c) => c.thingId).sort()).toEqual([m1().id, m2().id, plant.pump.id].sort());
    const first = cabinets.find((c) => c.thingId === m1().id);
    expect(first).toMatchObject({
      identifier: 'M1',
      name: '电表1',
      categoryId: plant.categoryId,
      setting: { attributes: [{ identifier: 'ct', name: 'CT 变比', value: '100/5' }] },
      attrMap: {
        P: { name: '有功功率', unit: 'kW', value: 50, ts: H + 120 * S },
        RUN: { value: null, ts: null },
      },
      lastSeenAgo: (t.clock.now() - (H + 120 * S)) / 1000,
    });
    const narrowed = await api.get(`/api/board/components/${r1}?categoryId=${plant.otherCategoryId}`);
    expect(narrowed.body.data.map((c: { identifier: string }) => c.identifier)).toEqual(['PUMP1']);
    expect((await api.get('/api/board/components/99999')).status).toBe(404);
  });

  it('pushes written values over Server-Sent Events (a stream ticket in the query string)', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const token = (await login(t.app)).token;
    /** A single-use stream ticket (docs/query-api.md), as the console asks one for each stream. */
    const ticket = async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/query/live/ticket',
        headers: bearer(token),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.ticket as string;
    };
    expect((await fetch(`${address}/api/query/live?thingIds=${m1().id}`)).status).toBe(401);
    expect((await fetch(`${address}/api/query/live?thingIds=x&ticket=${await ticket()}`)).status).toBe(400);
    const controller = new AbortController();
    const res = await fetch(
      `${address}/api/query/live?thingIds=${m1().id},${m2().id}&ticket=${await ticket()}`,
      {
        signal: controller.signal,
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const nextEvent = async () => {
      for (;;) {
        const end = text.indexOf('\n\n');
        if (end >= 0) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          if (data) return JSON.parse(data.slice(6));
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        text += decoder.decode(value);
      }
    };
    const snapshot = await nextEvent();
    expect(snapshot).toContainEqual({ thingId: m1().id, metric: 'P', ts: H + 120 * S, value: 50 });
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/telemetry',
      headers: { 'x-device-token': m2().token },
      payload: { ts: H + 180 * S, values: { P: 3.5 } },
    });
    expect(posted.statusCode).toBe(200);
    expect(await nextEvent()).toEqual([{ thingId: m2().id, metric: 'P', ts: H + 180 * S, value: 3.5 }]);
    controller.abort();
  });

  it('answers from the things and regions as they are now, right after they change', async () => {
    const r3 = (await api.post('/api/regions', { name: '三车间' })).body.data.id as number;
    const sum = async () => {
      const res = await data(minuteOf({ resourceType: 'region', resourceId: r3, combine: 'sum' }));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const result = res.body.data.result as { key: number; value: number | null; group: string }[];
      return { groups: [...new Set(result.map((p) => p.group))], values: result.map((p) => p.value) };
    };
    expect((await api.post(`/api/regions/${r3}/bindings`, { thingIds: [m1().id] })).status).toBe(200);
    expect(await sum()).toEqual({ groups: ['三车间'], values: [15, 35, 50] });
    // Renamed, another thing bound, one unbound: seen by the next query.
    expect((await api.put(`/api/regions/${r3}`, { name: '三号车间' })).status).toBe(200);
    expect((await sum()).groups).toEqual(['三号车间']);
    expect((await api.post(`/api/regions/${r3}/bindings`, { thingIds: [m2().id] })).status).toBe(200);
    expect((await sum()).values).toEqual([16, 37, 50]);
    expect((await api.del(`/api/regions/${r3}/bindings?thingIds=${m1().id}`)).status).toBe(200);
    expect((await sum()).values).toEqual([1, 2, null]);
    // An ability removed from the thing: no longer queryable at once.
    const abilities = (await api.get(`/api/thing/things/${m2().id}/abilities`)).body.data as {
      abilityId: number;
      identifier: string;
    }[];
    const p = abilities.find((a) => a.identifier === 'P')?.abilityId;
    expect((await data(minuteOf({ resourceId: m2().id }))).status).toBe(200);
    expect((await api.del(`/api/thing/things/${m2().id}/abilities?ids=${p}`)).status).toBe(200);
    expect((await data(minuteOf({ resourceId: m2().id }))).status).toBe(422);
    expect((await data(minuteOf({ resourceType: 'region', resourceId: r3 }))).status).toBe(422);
    // A deleted region: 404 at once.
    expect((await api.del(`/api/regions/${r3}`)).status).toBe(200);
    expect((await data(minuteOf({ resourceType: 'region', resourceId: r3 }))).status).toBe(404);
  });

  it('answers the last minutes the same after a restart (recent points loaded at open)', async () => {
    const now = t.clock.now();
    const points = Array.from({ length: 60 }, (_, i) => ({
      thingId: m1().id,
      metric: 'P',
      ts: now - 10 * MIN + i * 10 * S,
      value: (i * 7) % 13,
    }));
    await t.app.telemetry.write(points);
    const last5 = { resourceType: 'thing', resourceId: m1().id, metricIdentifier: 'P' };
    const range = { startTime: now - 5 * MIN, endTime: now };
    const before = [
      await values({ ...last5, ...range }),
      await values({ ...last5, ...range, groupByTime: 'second', groupByInterval: 10 }),
      await values({ ...last5, ...range, groupByTime: 'minute' }),
    ];
    expect(before[0]).toHaveLength(30);
    await t.restart();
    const after = [
      await values({ ...last5, ...range }),
      await values({ ...last5, ...range, groupByTime: 'second', groupByInterval: 10 }),
      await values({ ...last5, ...range, groupByTime: 'minute' }),
    ];
    expect(after).toEqual(before);
    // In-order points after the restart extend the same minutes (rollups from the loaded window).
    await t.app.telemetry.write([
      { thingId: m1().id, metric: 'P', ts: now, value: 100 },
      { thingId: m1().id, metric: 'P', ts: now + 10 * S, value: 200 },
    ]);
    const minute = await values({
      ...last5,
      startTime: now - MIN,
      endTime: now + MIN,
      groupByTime: 'minute',
      aggregator: 'max',
    });
    expect(minute).toEqual([
      [now - MIN, Math.max(...points.slice(-6).map((p) => p.value))],
      [now, 200],
    ]);
  });

  it('checks the expiry of an access token on every request, also one used before', async () => {
    const { token } = await login(t.app);
    const mine = apiAs(() => t.app, token);
    expect((await mine.get(`/api/query/realtime?resourceId=${m1().id}`)).status).toBe(200);
    t.clock.advance(1801 * S);
    const res = await mine.get(`/api/query/realtime?resourceId=${m1().id}`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('TOKEN_EXPIRED');
  });
});
