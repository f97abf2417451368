import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../test/helpers.ts';
import { type Plant, seedPlant } from '../../ingest/testing.ts';
import { editorWith, roleGranting } from '../system/testing.ts';
import { type Api, apiAs } from '../things/testing.ts';

/** 10:00 on 2026-11-22 in the plant's zone (Asia/Shanghai, UTC+8); the test clock is 16:00. */
const H = Date.parse('2026-11-22T02:00:00Z');

describe.each(dialects())('metric configs API on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let plant: Plant;
  let r1: number;
  const m1 = () => plant.things[0]!;
  const m2 = () => plant.things[1]!;
  const minuteOf = (q: Record<string, unknown>) => ({
    resourceType: 'thing',
    resourceId: m1().id,
    metricIdentifier: 'P',
    groupByTime: 'minute',
    groupByInterval: 1,
    startTime: H,
    endTime: H + 3 * 60_000,
    ...q,
  });

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { PLANT_TIMEZONE: 'Asia/Shanghai' } });
    api = apiAs(() => t.app, (await login(t.app)).token);
    plant = await seedPlant(api, 2);
    r1 = (await api.post('/api/regions', { name: '一车间' })).body.data.id;
    const r2 = (await api.post('/api/regions', { name: '一号线', parentId: r1 })).body.data.id;
    expect(
      (await api.post(`/api/regions/${r1}/bindings`, { thingIds: [m1().id, plant.pump.id] })).status,
    ).toBe(200);
    expect((await api.post(`/api/regions/${r2}/bindings`, { thingIds: [m2().id] })).status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
  });

  it('keeps metric configs per resource; changing them needs the real-time route', async () => {
    const key = `resourceType=thing&resourceId=${m1().id}`;
    expect((await api.get(`/api/query/config?${key}`)).body.data).toEqual([]);
    const patch = {
      resourceType: 'thing',
      resourceId: m1().id,
      configs: [
        { metricIdentifier: 'EP', enabled: true },
        { metricIdentifier: 'P', enabled: false, name: '功率', color: '#112233', aggregator: 'max' },
      ],
    };
    const saved = await api.patch('/api/query/config', patch);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toEqual([
      {
        id: expect.any(Number),
        resourceType: 'thing',
        resourceId: m1().id,
        categoryId: null,
        metricIdentifier: 'EP',
        metricName: '有功电能',
        name: '有功电能',
        enabled: true,
        unit: 'kWh',
        aggregator: 'last',
        function: 'last',
        color: '#409EFF',
        sort: 0,
      },
      expect.objectContaining({
        metricIdentifier: 'P',
        name: '功率',
        enabled: false,
        color: '#112233',
        aggregator: 'max',
        sort: 1,
      }),
    ]);
    expect((await api.get(`/api/query/config?${key}`)).body.data).toEqual(saved.body.data);
    // Replaced as a whole.
    await api.patch('/api/query/config', { ...patch, configs: [{ metricIdentifier: 'P', enabled: true }] });
    expect(
      (await api.get(`/api/query/config?${key}`)).body.data.map(
        (c: { metricIdentifier: string }) => c.metricIdentifier,
      ),
    ).toEqual(['P']);
    // A region's list per category.
    const regional = {
      resourceType: 'region',
      resourceId: r1,
      categoryId: plant.categoryId,
      configs: [{ metricIdentifier: 'EP', enabled: true }],
    };
    expect((await api.patch('/api/query/config', regional)).status).toBe(200);
    expect((await api.get(`/api/query/config?resourceType=region&resourceId=${r1}`)).body.data).toEqual([]);
    expect(
      (await api.get(`/api/query/config?resourceType=region&resourceId=${r1}&categoryId=${plant.categoryId}`))
        .body.data,
    ).toHaveLength(1);
    // Refusals.
    expect(
      (
        await api.patch('/api/query/config', {
          ...patch,
          configs: [{ metricIdentifier: 'T', enabled: true }],
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await api.patch('/api/query/config', {
          ...regional,
          configs: [{ metricIdentifier: 'T', enabled: true }],
        })
      ).status,
    ).toBe(422);
    const twice = [
      { metricIdentifier: 'P', enabled: true },
      { metricIdentifier: 'P', enabled: true },
    ];
    expect((await api.patch('/api/query/config', { ...patch, configs: twice })).status).toBe(422);
    expect((await api.patch('/api/query/config', { ...patch, resourceId: 99999 })).status).toBe(404);
    // Editors read; only a role granting /energy_monitor/realtime may change.
    const editor = await editorWith(() => t.app, api as never, 'viewer');
    expect((await editor.api.get(`/api/query/config?${key}`)).status).toBe(200);
    expect((await editor.api.patch('/api/query/config', patch)).status).toBe(403);
    const roleId = await roleGranting(api as never, 'monitor-keeper', ['/energy_monitor/realtime']);
    const keeper = await editorWith(() => t.app, api as never, 'keeper', [roleId]);
    expect((await keeper.api.patch('/api/query/config', patch)).status).toBe(200);
    expect((await keeper.api.post('/api/query/data', minuteOf({}))).status).toBe(200);
  });

  it('answers every one of concurrent identical config writes with the same list', async () => {
    const patch = {
      resourceType: 'thing',
      resourceId: m2().id,
      configs: [
        { metricIdentifier: 'P', enabled: true },
        { metricIdentifier: 'EP', enabled: false },
      ],
    };
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => api.patch('/api/query/config', patch)),
      );
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      const lists = answers.map((a) =>
        a.body.data.map((c: { metricIdentifier: string; enabled: boolean }) => [
          c.metricIdentifier,
          c.enabled,
        ]),
      );
      for (const list of lists)
        expect(list).toEqual([
          ['P', true],
          ['EP', false],
        ]);
    }
    // A shorter list replaces the longer one: the metric left out is gone.
    const shorter = await api.patch('/api/query/config', {
      ...patch,
      configs: [{ metricIdentifier: 'EP', enabled: true }],
    });
    expect(shorter.body.data.map((c: { metricIdentifier: string }) => c.metricIdentifier)).toEqual(['EP']);
  });
});
