import { boardRotation } from '@kilowatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../test/helpers.ts';
import { type Plant, seedPlant } from '../../ingest/testing.ts';
import { editorWith, roleGranting } from '../system/testing.ts';
import { type Api, apiAs } from '../things/testing.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever the body holds
type Body = any;

describe('boardRotation', () => {
  const page = (id: number, weight: number, enabled = true) => ({ id, weight, enabled });

  it('spreads a heavy page between the others, heaviest first, equal weights by age', () => {
    expect(boardRotation([page(1, 1), page(2, 3), page(3, 1)]).map((p) => p.id)).toEqual([2, 1, 2, 3, 2]);
    expect(boardRotation([page(5, 2), page(4, 2)]).map((p) => p.id)).toEqual([4, 5, 4, 5]);
  });

  it('leaves disabled pages out and is empty without pages', () => {
    expect(boardRotation([page(1, 2), page(2, 5, false)]).map((p) => p.id)).toEqual([1, 1]);
    expect(boardRotation([])).toEqual([]);
  });
});

describe.each(dialects())('workshop board on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let english: Api;
  let spanish: Api;
  let keeper: Api;
  let reader: Api;
  let plant: Plant;
  let workshop: number;
  let line: number;
  const ok = async <T = Body>(p: Promise<{ status: number; body: Body }>): Promise<T> => {
    const res = await p;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as T;
  };
  const power = { identifier: 'P', name: '有功功率', statistics: 'avg', unit: 'kW' };

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    const { token } = await login(t.app);
    api = apiAs(() => t.app, token);
    english = apiAs(() => t.app, token, { 'accept-language': 'en' });
    spanish = apiAs(() => t.app, token, { 'accept-language': 'es' });
    plant = await seedPlant(api, 2);
    workshop = (await ok(api.post('/api/regions', { name: '一车间' }))).id;
    line = (await ok(api.post('/api/regions', { name: '一号线', parentId: workshop }))).id;
    await ok(
      api.post(`/api/regions/${workshop}/bindings`, { thingIds: [plant.things[0]!.id, plant.pump.id] }),
    );
    await ok(api.post(`/api/regions/${line}/bindings`, { thingIds: [plant.things[1]!.id] }));
    const roleId = await roleGranting(api, 'board-keeper', ['/workshopBoard']);
    keeper = (await editorWith(() => t.app, api, 'board-keeper', [roleId])).api as unknown as Api;
    reader = (await editorWith(() => t.app, api, 'board-reader')).api as unknown as Api;
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates pages with defaults and lists them heaviest first with their share of the rotation', async () => {
    expect(await ok(api.get('/api/board/pages'))).toEqual([]);
    const a = await ok(api.post('/api/board/pages', { name: ' 一车间总览 ', regionId: workshop }));
    expect(a).toMatchObject({
      name: '一车间总览',
      regionId: workshop,
      regionName: '一车间',
      successor: true,
      categoryId: null,
      interval: 30,
      weight: 1,
      enabled: true,
      share: 1,
      components: 0,
    });
    const b = await ok(
      api.post('/api/board/pages', {
        name: '一号线',
        regionId: line,
        interval: 10,
        weight: 3,
        successor: false,
      }),
    );
    const pages = await ok<Body[]>(api.get('/api/board/pages'));
    expect(pages.map((p) => p.id)).toEqual([b.id, a.id]);
    // weight × interval: 3 × 10 = 30 against 1 × 30 = 30.
    expect(pages.map((p) => p.share)).toEqual([0.5, 0.5]);
    expect(pages[0]).toMatchObject({ successor: false, interval: 10, weight: 3 });
  });

  it('sets a weight with PATCH …/weight and answers every page in the new order', async () => {
    const [heavy, light] = await ok<Body[]>(api.get('/api/board/pages'));
    const after = await ok<Body[]>(api.patch(`/api/board/pages/${light.id}/weight`, { weight: 9 }));
    expect(after.map((p) => p.id)).toEqual([light.id, heavy.id]);
    expect(after.map((p) => p.weight)).toEqual([9, 3]);
    // 9 × 30 = 270 against 3 × 10 = 30.
    expect(after.map((p) => p.share)).toEqual([0.9, 0.1]);
    expect(await ok<Body[]>(api.get('/api/board/pages'))).toEqual(after);

    for (const weight of [0, 11, 2.5]) {
      expect((await api.patch(`/api/board/pages/${light.id}/weight`, { weight })).status).toBe(400);
    }
    const missing = await english.patch('/api/board/pages/99999/weight', { weight: 2 });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Board page 99999 does not exist');
  });

  it('disables a page: out of the rotation, share 0, the others share its time', async () => {
    const [first, second] = await ok<Body[]>(api.get('/api/board/pages'));
    const changed = await ok(api.patch(`/api/board/pages/${first.id}`, { enabled: false }));
    expect(changed).toMatchObject({ enabled: false, share: 0 });
    const pages = await ok<Body[]>(api.get('/api/board/pages'));
    expect(pages.find((p) => p.id === second.id).share).toBe(1);
    await ok(api.patch(`/api/board/pages/${first.id}`, { enabled: true, name: '总览', interval: 60 }));
    expect((await ok<Body[]>(api.get('/api/board/pages'))).find((p) => p.id === first.id)).toMatchObject({
      name: '总览',
      interval: 60,
    });
  });

  it('refuses bad input with messages in zh, en and es', async () => {
    const unknownRegion = await api.post('/api/board/pages', { name: 'x', regionId: 99999 });
    expect(unknownRegion.status).toBe(404);
    expect(unknownRegion.body.message).toBe('区域 99999 不存在');
    expect((await api.post('/api/board/pages', { name: '', regionId: workshop })).status).toBe(400);
    expect((await api.post('/api/board/pages', { name: 'x', regionId: workshop, interval: 2 })).status).toBe(
      400,
    );
    expect(
      (await api.post('/api/board/pages', { name: 'x', regionId: workshop, categoryId: 99999 })).status,
    ).toBe(404);
    const [page] = await ok<Body[]>(api.get('/api/board/pages'));
    const noMetric = { title: '功率', chartType: 'line', params: { regionId: workshop }, metrics: [] };
    const zh = await api.post(`/api/board/pages/${page.id}/components`, noMetric);
    expect(zh.status).toBe(422);
    expect(zh.body.message).toBe('图表组件至少需要一个指标');
    expect((await english.post(`/api/board/pages/${page.id}/components`, noMetric)).body.message).toBe(
      'A chart component needs at least one metric',
    );
    expect((await spanish.post(`/api/board/pages/${page.id}/components`, noMetric)).body.message).toBe(
      'Un componente de gráfico necesita al menos una métrica',
    );
    const tilesOfThing = await api.post(`/api/board/pages/${page.id}/components`, {
      title: '设备',
      chartType: 'devices',
      params: { thingId: plant.things[0]!.id },
      metrics: [],
    });
    expect(tilesOfThing.status).toBe(422);
    const unknownMetric = await api.post(`/api/board/pages/${page.id}/components`, {
      title: '功率',
      chartType: 'line',
      params: { thingId: plant.things[0]!.id },
      metrics: [{ ...power, identifier: 'NOPE' }],
    });
    expect(unknownMetric.status).toBe(422);
  });

  it('keeps a grid of components per page: KPI charts and device tiles, placed, moved and removed', async () => {
    const [page] = await ok<Body[]>(api.get('/api/board/pages'));
    const chart = await ok(
      api.post(`/api/board/pages/${page.id}/components`, {
        title: '一车间功率',
        chartType: 'line',
        params: { regionId: workshop },
        metrics: [{ ...power, categoryId: plant.categoryId }],
      }),
    );
    expect(chart).toMatchObject({ pageId: page.id, chartType: 'line', layout: { x: 0, y: 0, w: 6, h: 8 } });
    const tiles = await ok(
      api.post(`/api/board/pages/${page.id}/components`, {
        title: '设备',
        chartType: 'devices',
        params: {},
        metrics: [{ ...power, categoryId: plant.categoryId }],
      }),
    );
    expect(tiles.layout).toEqual({ x: 6, y: 0, w: 6, h: 8 });
    const moved = await ok<Body[]>(
      api.put(`/api/board/pages/${page.id}/components`, [
        { id: tiles.id, layout: { x: 0, y: 8, w: 12, h: 6 } },
      ]),
    );
    expect(moved.map((c) => c.id)).toEqual([chart.id, tiles.id]);
    expect(moved[1].layout).toEqual({ x: 0, y: 8, w: 12, h: 6 });
    const renamed = await ok(
      api.patch(`/api/board/pages/${page.id}/components/${chart.id}`, {
        title: '功率',
        layout: { x: 10, y: 0, w: 6, h: 4 },
      }),
    );
    expect(renamed).toMatchObject({ title: '功率', layout: { x: 6, y: 0, w: 6, h: 4 } });
    expect((await ok<Body[]>(api.get('/api/board/pages'))).find((p) => p.id === page.id).components).toBe(2);

    const other = await ok(api.post('/api/board/pages', { name: '别的', regionId: line }));
    const stranger = await api.put(`/api/board/pages/${other.id}/components`, [
      { id: chart.id, layout: { x: 0, y: 0, w: 2, h: 2 } },
    ]);
    expect(stranger.status).toBe(422);
    expect((await api.del(`/api/board/pages/${other.id}/components/${chart.id}`)).status).toBe(404);

    await ok(api.del(`/api/board/pages/${page.id}/components/${chart.id}`));
    expect((await ok<Body[]>(api.get(`/api/board/pages/${page.id}/components`))).map((c) => c.id)).toEqual([
      tiles.id,
    ]);
    await ok(api.del(`/api/board/pages/${other.id}`));
  });

  it('answers the cabinets of a page region with and without its sub-regions (successor)', async () => {
    const ids = async (query: string) =>
      (await ok<Body[]>(api.get(`/api/board/components/${workshop}${query}`))).map((c) => c.thingId).sort();
    const [m1, m2] = plant.things;
    expect(await ids('')).toEqual([m1!.id, plant.pump.id].sort());
    expect(await ids('?successor=false')).toEqual([m1!.id, plant.pump.id].sort());
    expect(await ids('?successor=true')).toEqual([m1!.id, m2!.id, plant.pump.id].sort());
    expect(await ids(`?successor=true&categoryId=${plant.categoryId}`)).toEqual([m1!.id, m2!.id].sort());
    expect(await ids(`?categoryId=${plant.categoryId}`)).toEqual([m1!.id]);
  });

  it('lets every user read and only holders of /workshopBoard write', async () => {
    const pages = await ok<Body[]>(reader.get('/api/board/pages'));
    expect(pages.length).toBeGreaterThan(0);
    expect((await reader.get(`/api/board/pages/${pages[0].id}/components`)).status).toBe(200);
    expect((await reader.patch(`/api/board/pages/${pages[0].id}/weight`, { weight: 2 })).status).toBe(403);
    expect((await reader.post('/api/board/pages', { name: 'x', regionId: workshop })).status).toBe(403);
    expect((await reader.del(`/api/board/pages/${pages[0].id}`)).status).toBe(403);
    await ok(keeper.patch(`/api/board/pages/${pages[0].id}/weight`, { weight: 2 }));
    const made = await ok(keeper.post('/api/board/pages', { name: '临时', regionId: line }));
    await ok(keeper.del(`/api/board/pages/${made.id}`));
  });

  it("takes a deleted region's pages with it", async () => {
    const region = (await ok(api.post('/api/regions', { name: '临时区域' }))).id;
    const made = await ok(api.post('/api/board/pages', { name: '临时', regionId: region }));
    await ok(
      api.post(`/api/board/pages/${made.id}/components`, {
        title: '设备',
        chartType: 'devices',
        params: {},
        metrics: [],
      }),
    );
    expect((await api.del(`/api/regions/${region}`)).status).toBe(200);
    expect((await ok<Body[]>(api.get('/api/board/pages'))).some((p) => p.id === made.id)).toBe(false);
    expect((await api.get(`/api/board/pages/${made.id}/components`)).status).toBe(404);
  });

  it('deletes a page with its components', async () => {
    const [page] = await ok<Body[]>(api.get('/api/board/pages'));
    await ok(api.del(`/api/board/pages/${page.id}`));
    expect((await api.get(`/api/board/pages/${page.id}/components`)).status).toBe(404);
    expect((await api.del(`/api/board/pages/${page.id}`)).status).toBe(404);
    const left = await t.app.services.board.pages();
    expect(left.some((p) => p.id === page.id)).toBe(false);
  });
});
