import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../test/helpers.ts';
import { type Plant, seedPlant } from '../../ingest/testing.ts';
import { type Api, apiAs } from '../things/testing.ts';

describe.each(dialects())('GET /api/regions/unbound on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let plant: Plant;
  const names = async (query = '') => {
    const res = await api.get(`/api/regions/unbound${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.data as { identifier: string }[]).map((x) => x.identifier);
  };

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    api = apiAs(() => t.app, (await login(t.app)).token);
    plant = await seedPlant(api, 3);
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists the things bound to no region, by name, optionally of one category', async () => {
    // By name as the console orders them: 电表… (diàn) before 水泵… (shuǐ).
    expect(await names()).toEqual(['M1', 'M2', 'M3', plant.pump.identifier]);
    const region = (await api.post('/api/regions', { name: '一车间' })).body.data;
    const other = (await api.post('/api/regions', { name: '二车间' })).body.data;
    const [m1, m2] = plant.things;
    expect(
      (await api.post(`/api/regions/${region.id}/bindings`, { thingIds: [m1!.id, m2!.id] })).status,
    ).toBe(200);
    // Bound twice is still bound once as far as "unassigned" goes.
    await api.post(`/api/regions/${other.id}/bindings`, { thingIds: [m1!.id] });
    expect(await names()).toEqual(['M3', plant.pump.identifier]);
    expect(await names(`?categoryId=${plant.categoryId}`)).toEqual(['M3']);
    const unbound = (await api.get(`/api/regions/unbound?categoryId=${plant.categoryId}`)).body.data[0];
    expect(unbound).toMatchObject({
      id: plant.things[2]!.id,
      name: plant.things[2]!.name,
      categoryName: '电表',
    });

    await api.del(`/api/regions/${region.id}/bindings?thingIds=${m2!.id}`);
    expect(await names()).toEqual(['M2', 'M3', plant.pump.identifier]);
    expect((await api.get('/api/regions/unbound?categoryId=0')).status).toBe(400);
  });

  it('lists unbound and bound things in natural order of their names (1#, 2#, … 10#)', async () => {
    const made = [];
    for (const [i, name] of ['10#水泵', '9#水泵', '1#水泵'].entries()) {
      const res = await api.post('/api/thing/things', { identifier: `N-${i}`, name, modelId: plant.modelId });
      expect(res.status).toBe(200);
      made.push(res.body.data.id as number);
    }
    expect((await names()).filter((id) => id.startsWith('N-'))).toEqual(['N-2', 'N-1', 'N-0']);
    const region = (await api.post('/api/regions', { name: '水泵房' })).body.data;
    const bound = await api.post(`/api/regions/${region.id}/bindings`, { thingIds: made });
    expect(bound.status).toBe(200);
    const listed = (await api.get(`/api/regions/${region.id}/bindings`)).body.data as { name: string }[];
    expect(JSON.stringify(listed).match(/\d+#水泵/g)).toEqual(['1#水泵', '9#水泵', '10#水泵']);
  });
});
