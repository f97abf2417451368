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
    expect(await names()).toEqual([plant.pump.identifier, 'M1', 'M2', 'M3']);
    const region = (await api.post('/api/regions', { name: '一车间' })).body.data;
    const other = (await api.post('/api/regions', { name: '二车间' })).body.data;
    const [m1, m2] = plant.things;
    expect(
      (await api.post(`/api/regions/${region.id}/bindings`, { thingIds: [m1!.id, m2!.id] })).status,
    ).toBe(200);
    // Bound twice is still bound once as far as "unassigned" goes.
    await api.post(`/api/regions/${other.id}/bindings`, { thingIds: [m1!.id] });
    expect(await names()).toEqual([plant.pump.identifier, 'M3']);
    expect(await names(`?categoryId=${plant.categoryId}`)).toEqual(['M3']);
    const unbound = (await api.get(`/api/regions/unbound?categoryId=${plant.categoryId}`)).body.data[0];
    expect(unbound).toMatchObject({
      id: plant.things[2]!.id,
      name: plant.things[2]!.name,
      categoryName: '电表',
    });

    await api.del(`/api/regions/${region.id}/bindings?thingIds=${m2!.id}`);
    expect(await names()).toEqual([plant.pump.identifier, 'M2', 'M3']);
    expect((await api.get('/api/regions/unbound?categoryId=0')).status).toBe(400);
  });
});
