import { REGION_MAX_DEPTH } from '@kilowatch/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../test/helpers.ts';
import { type Client, client, editorWith, roleGranting } from '../system/testing.ts';
import { seedDevices } from '../things/testing.ts';

describe.each(dialects())('regions API on %s', (dialect) => {
  let t: TestApp;
  let admin: Client;
  beforeEach(async () => {
    t = await buildTestApp(dialect);
    admin = client(() => t.app, (await login(t.app)).token);
  });
  afterEach(async () => {
    await t.close();
  });

  const create = async (name: string, parentId?: number | null) => {
    const res = await admin.post('/api/regions', { name, ...(parentId !== undefined ? { parentId } : {}) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { id: number; sort: number };
  };

  it('creates, renames and answers the tree with dimensions, level and sort', async () => {
    const plant = await create('工厂');
    const w1 = await create('一车间', plant.id);
    const w2 = await create('二车间', plant.id);
    const line = await create('产线A', w2.id);
    expect([w1.sort, w2.sort]).toEqual([0, 1]);

    const renamed = await admin.put(`/api/regions/${w1.id}`, { name: '1号车间', description: 'east' });
    expect(renamed.body.data).toEqual({
      id: w1.id,
      parentId: plant.id,
      name: '1号车间',
      description: 'east',
      sort: 0,
    });

    const tree = (await admin.get('/api/regions')).body.data;
    expect(tree).toHaveLength(1);
    expect(tree[0]).toMatchObject({ id: plant.id, parentId: null, level: 1, dimensions: [], isClick: true });
    expect(tree[0].children.map((n: { name: string }) => n.name)).toEqual(['1号车间', '二车间']);
    expect(tree[0].children[1].children[0]).toMatchObject({
      id: line.id,
      parentId: w2.id,
      dimensions: [plant.id, w2.id],
      level: 3,
      resourceType: 'region',
      thingId: null,
      children: [],
    });
  });

  it('refuses an unknown parent and a tree deeper than the limit with 422', async () => {
    expect((await admin.post('/api/regions', { name: 'x', parentId: 999 })).status).toBe(422);
    let parent: number | null = null;
    for (let i = 0; i < REGION_MAX_DEPTH; i++) parent = (await create(`L${i}`, parent)).id;
    const res = await admin.post('/api/regions', { name: 'too deep', parentId: parent });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(`区域树最多 ${REGION_MAX_DEPTH} 层`);
  });

  it('deletes only regions without children (409), and their bindings go with them', async () => {
    const { things } = await seedDevices(
      client(() => t.app, (await login(t.app)).token),
      1,
    );
    const plant = await create('P');
    const shop = await create('S', plant.id);
    await admin.post(`/api/regions/${shop.id}/bindings`, { thingIds: [things[0].id] });
    const refused = await admin.del(`/api/regions/${plant.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CONFLICT');
    expect((await admin.del(`/api/regions/${shop.id}`)).status).toBe(200);
    expect((await admin.get('/api/regions/bindings')).body.data).toEqual([]);
    expect((await admin.del(`/api/regions/${plant.id}`)).status).toBe(200);
    expect((await admin.del(`/api/regions/${plant.id}`)).status).toBe(404);
    expect((await admin.put(`/api/regions/${plant.id}`, { name: 'x' })).status).toBe(404);
  });

  it('moves and reorders in one call, and refuses cycles with 422 leaving the tree unchanged', async () => {
    const a = await create('A');
    const b = await create('B');
    const a1 = await create('A1', a.id);
    const a2 = await create('A2', a.id);
    const moved = await admin.patch('/api/regions/order', [
      { id: a2.id, parentId: a.id, sort: 0 },
      { id: a1.id, parentId: a.id, sort: 1 },
      { id: b.id, parentId: a2.id, sort: 0 },
    ]);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data).toHaveLength(1);
    const [root] = moved.body.data;
    expect(root.children.map((n: { id: number }) => n.id)).toEqual([a2.id, a1.id]);
    expect(root.children[0].children[0]).toMatchObject({ id: b.id, dimensions: [a.id, a2.id], level: 3 });

    const before = (await admin.get('/api/regions')).body.data;
    const cycle = await admin.patch('/api/regions/order', [
      { id: a1.id, parentId: null, sort: 5 },
      { id: a.id, parentId: b.id, sort: 0 },
    ]);
    expect(cycle.status).toBe(422);
    expect(cycle.body.message).toBe('不能把区域移到它自己或它的下级区域之下');
    expect((await admin.get('/api/regions')).body.data).toEqual(before);
    expect((await admin.patch('/api/regions/order', [{ id: a.id, parentId: a.id, sort: 0 }])).status).toBe(
      422,
    );
    expect((await admin.patch('/api/regions/order', [{ id: 999, parentId: null, sort: 0 }])).status).toBe(
      422,
    );
  });

  it('binds things, lists bindings by category and with successors, and shows thing leaves', async () => {
    const devices = await seedDevices(admin, 3);
    const other = await seedDevicesOfAnotherCategory(admin);
    const [m1, m2, m3] = devices.things;
    const plant = await create('P');
    const shop = await create('S', plant.id);
    const line = await create('L', shop.id);

    expect((await admin.post(`/api/regions/${plant.id}/bindings`, { thingIds: [m1.id] })).status).toBe(200);
    const bound = await admin.post(`/api/regions/${shop.id}/bindings`, {
      thingIds: [m2.id, other.id, m2.id],
    });
    expect(bound.status).toBe(200);
    expect(bound.body.data.map((b: { thing: { id: number } }) => b.thing.id).sort()).toEqual(
      [m2.id, other.id].sort(),
    );
    // A thing may be bound to several regions; binding twice is a no-op.
    await admin.post(`/api/regions/${line.id}/bindings`, { thingIds: [m3.id, m1.id] });
    await admin.post(`/api/regions/${line.id}/bindings`, { thingIds: [m3.id] });

    const own = (await admin.get(`/api/regions/${shop.id}/bindings`)).body.data;
    expect(own).toHaveLength(2);
    expect(own[0]).toMatchObject({ regionId: shop.id, regionName: 'S' });
    expect(own.find((b: { thing: { id: number } }) => b.thing.id === m2.id).thing).toMatchObject({
      id: m2.id,
      identifier: 'M2',
      modelId: devices.model.id,
      modelName: 'A型',
      categoryId: devices.category.id,
      categoryName: '电表',
      setting: { attributes: [] },
    });
    const ofCategory = (await admin.get(`/api/regions/${shop.id}/bindings?categoryId=${devices.category.id}`))
      .body.data;
    expect(ofCategory.map((b: { thing: { id: number } }) => b.thing.id)).toEqual([m2.id]);
    const withSuccessors = (await admin.get(`/api/regions/${shop.id}/bindings?successor=true`)).body.data;
    expect(
      withSuccessors.map((b: { regionId: number; thing: { id: number } }) => [b.regionId, b.thing.id]),
    ).toEqual(
      expect.arrayContaining([
        [shop.id, m2.id],
        [shop.id, other.id],
        [line.id, m1.id],
        [line.id, m3.id],
      ]),
    );
    expect(withSuccessors).toHaveLength(4);
    const all = (await admin.get(`/api/regions/bindings?categoryId=${devices.category.id}`)).body.data;
    expect(all).toHaveLength(4);

    const tree = (await admin.get(`/api/regions?withThings=true&categoryId=${devices.category.id}`)).body
      .data;
    const [root] = tree;
    expect(root.children.map((n: { resourceType: string; id: number }) => [n.resourceType, n.id])).toEqual([
      ['region', shop.id],
      ['thing', m1.id],
    ]);
    const shopNode = root.children[0];
    expect(
      shopNode.children.map((n: { resourceType: string; name: string }) => [n.resourceType, n.name]),
    ).toEqual([
      ['region', 'L'],
      ['thing', '电表2'],
    ]);
    expect(shopNode.children[1]).toMatchObject({
      thingId: m2.id,
      parentId: shop.id,
      dimensions: [plant.id, shop.id],
      level: 3,
    });
    expect((await admin.get('/api/regions')).body.data[0].children).toHaveLength(1);

    const unbound = await admin.del(`/api/regions/${line.id}/bindings?thingIds=${m1.id},${m3.id}`);
    expect(unbound.status).toBe(200);
    expect(unbound.body.data).toEqual([]);
  });

  it('refuses unknown things (422), bad id lists (400) and unknown regions (404)', async () => {
    const region = await create('P');
    const missing = await admin.post(`/api/regions/${region.id}/bindings`, { thingIds: [999, 998] });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toBe('以下设备不存在：999, 998');
    expect((await admin.del(`/api/regions/${region.id}/bindings?thingIds=1,x`)).status).toBe(400);
    expect((await admin.del(`/api/regions/${region.id}/bindings?thingIds=99999999999`)).status).toBe(400);
    expect((await admin.get('/api/regions/999/bindings')).status).toBe(404);
    expect((await admin.post('/api/regions/999/bindings', { thingIds: [1] })).status).toBe(404);
  });

  it('lets every user read, but only admins or a role granting /region write', async () => {
    const region = await create('P');
    const editor = await editorWith(() => t.app, admin, 'ed');
    expect((await editor.api.get('/api/regions')).status).toBe(200);
    expect((await editor.api.get(`/api/regions/${region.id}/bindings`)).status).toBe(200);
    expect((await editor.api.get('/api/regions/bindings')).status).toBe(200);
    expect((await editor.api.post('/api/regions', { name: 'x' })).status).toBe(403);
    expect((await editor.api.put(`/api/regions/${region.id}`, { name: 'x' })).status).toBe(403);
    expect((await editor.api.del(`/api/regions/${region.id}`)).status).toBe(403);
    expect(
      (await editor.api.patch('/api/regions/order', [{ id: region.id, parentId: null, sort: 0 }])).status,
    ).toBe(403);

    const roleId = await roleGranting(admin, 'region-editor', ['/region']);
    const granted = await editorWith(() => t.app, admin, 'granted', [roleId]);
    expect((await granted.api.post('/api/regions', { name: 'x', parentId: region.id })).status).toBe(200);
    expect((await granted.api.put(`/api/regions/${region.id}`, { name: 'y' })).status).toBe(200);
  });
});

/** One thing of a second category, so category filters have something to leave out. */
async function seedDevicesOfAnotherCategory(api: Client) {
  const category = (await api.post('/api/thing/categories', { name: '水表' })).body.data;
  const model = (await api.post('/api/thing/models', { categoryId: category.id, name: 'W型' })).body.data;
  return (await api.post('/api/thing/things', { identifier: 'W1', name: '水表1', modelId: model.id })).body
    .data;
}
