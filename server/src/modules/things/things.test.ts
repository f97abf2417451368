import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, dialects, login, type TestApp } from '../../../test/helpers.ts';
import { type Api, apiAs, seedDevices } from './testing.ts';

describe.each(dialects())('things API on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  beforeEach(async () => {
    t = await buildTestApp(dialect);
    const { token } = await login(t.app);
    api = apiAs(() => t.app, token);
  });
  afterEach(async () => {
    await t.close();
  });

  it('lists things in natural order of their names, across pages and with a presence filter', async () => {
    const { model } = await seedDevices(api);
    // Created out of order, so neither id nor plain text order is the natural one.
    for (const [i, name] of ['10#空压机', '2#空压机', '1#空压机', '11#空压机', '1#冷干机'].entries()) {
      const res = await api.post('/api/thing/things', { identifier: `nat-${i}`, name, modelId: model.id });
      expect(res.status).toBe(200);
    }
    const names = async (query: string) =>
      (await api.get(`/api/thing/things?${query}`)).body.data.list.map((x: { name: string }) => x.name);
    // Numbers as numbers; characters as the console orders them (pinyin: 空 kōng before 冷 lěng).
    const natural = ['1#空压机', '1#冷干机', '2#空压机', '10#空压机', '11#空压机'];
    expect(await names('page=1&pageSize=50')).toEqual(natural);
    expect(await names('page=1&pageSize=3')).toEqual(natural.slice(0, 3));
    expect(await names('page=2&pageSize=3')).toEqual(natural.slice(3));
    expect(await names(`name=${encodeURIComponent('空压机')}`)).toEqual(
      natural.filter((n) => n.includes('空')),
    );
    // None has reported yet: all 'never', in the same order.
    expect(await names('presence=never&pageSize=50')).toEqual(natural);
  });

  it('creates, reads, lists with paging, filters and search, updates and deletes things', async () => {
    const { category, model } = await seedDevices(api);
    const model2 = (await api.post('/api/thing/models', { categoryId: category.id, name: 'B型' })).body.data;
    const created = await api.post('/api/thing/things', {
      identifier: 'Meter-01',
      name: '一号进线柜',
      description: '1#',
      modelId: model.id,
      setting: { attributes: [{ identifier: 'ct', name: 'CT 变比', value: '200/5' }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data).toEqual({
      id: expect.any(Number),
      identifier: 'Meter-01',
      name: '一号进线柜',
      description: '1#',
      modelId: model.id,
      modelName: 'A型',
      categoryId: category.id,
      categoryName: '电表',
      setting: { attributes: [{ identifier: 'ct', name: 'CT 变比', value: '200/5' }] },
      createdAt: '2026-11-22T08:00:00.000Z',
      updatedAt: '2026-11-22T08:00:00.000Z',
    });
    const id = created.body.data.id;
    for (let i = 2; i <= 4; i++) {
      const res = await api.post('/api/thing/things', {
        identifier: `Meter-0${i}`,
        name: `${i}号柜`,
        modelId: model2.id,
      });
      expect(res.body.data.setting).toEqual({ attributes: [] });
    }

    expect((await api.get(`/api/thing/things/${id}`)).body.data.identifier).toBe('Meter-01');
    const page = await api.get('/api/thing/things?page=2&pageSize=3');
    expect(page.body.data).toMatchObject({ total: 4, page: 2, pageSize: 3 });
    // Natural order of names: 2号柜, 3号柜, 4号柜, then 一号进线柜 (numbers before characters).
    expect(page.body.data.list.map((x: { identifier: string }) => x.identifier)).toEqual(['Meter-01']);
    expect((await api.get(`/api/thing/things?modelId=${model2.id}`)).body.data.total).toBe(3);
    expect((await api.get(`/api/thing/things?categoryId=${category.id}`)).body.data.total).toBe(4);
    expect((await api.get('/api/thing/things?categoryId=999')).body.data.total).toBe(0);
    expect((await api.get(`/api/thing/things?name=${encodeURIComponent('进线')}`)).body.data.total).toBe(1);
    expect((await api.get('/api/thing/things?name=meter-0')).body.data.total).toBe(4);

    // Identifiers are unique and case-sensitive.
    const dup = await api.post('/api/thing/things', { identifier: 'Meter-01', name: 'x', modelId: model.id });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ code: 'CONFLICT', message: '设备标识“Meter-01”已被设备“一号进线柜”使用' });
    expect(
      (await api.post('/api/thing/things', { identifier: 'meter-01', name: 'x', modelId: model.id })).status,
    ).toBe(200);
    const missingModel = await api.post('/api/thing/things', { identifier: 'X1', name: 'x', modelId: 999 });
    expect(missingModel.status).toBe(422);
    expect(missingModel.body).toEqual({ code: 'UNPROCESSABLE', message: '型号 999 不存在' });

    const updated = await api.put(`/api/thing/things/${id}`, {
      identifier: 'Meter-1',
      name: '进线柜',
      modelId: model2.id,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      identifier: 'Meter-1',
      name: '进线柜',
      description: '1#',
      modelName: 'B型',
      setting: { attributes: [{ identifier: 'ct', name: 'CT 变比', value: '200/5' }] },
    });
    expect(
      (await api.put(`/api/thing/things/${id}`, { identifier: 'Meter-02', name: 'x', modelId: model.id }))
        .status,
    ).toBe(409);

    expect((await api.del(`/api/thing/things/${id}`)).body).toEqual({ data: { ok: true } });
    expect((await api.get(`/api/thing/things/${id}`)).status).toBe(404);
    expect((await api.del(`/api/thing/things/${id}`)).status).toBe(404);
    expect(
      (await api.put(`/api/thing/things/${id}`, { identifier: 'Z', name: 'z', modelId: model.id })).status,
    ).toBe(404);
  });

  it('validates thing input with 400', async () => {
    const { model } = await seedDevices(api);
    const bad = [
      { identifier: '1abc', name: 'x', modelId: model.id },
      { identifier: 'has space', name: 'x', modelId: model.id },
      { identifier: 'a'.repeat(65), name: 'x', modelId: model.id },
      { identifier: 'ok', modelId: model.id },
      { identifier: 'ok', name: 'x' },
      { identifier: 'ok', name: 'x', modelId: model.id, setting: { attributes: [{ identifier: 'a' }] } },
    ];
    for (const payload of bad) {
      const res = await api.post('/api/thing/things', payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.code).toBe('VALIDATION');
    }
    expect((await api.get('/api/thing/things/abc')).status).toBe(400);
  });

  it('removes abilities from one thing only, in one query for many things', async () => {
    const { power, energy, category, things } = await seedDevices(api, 2);
    const [a, b] = things;
    const removed = await api.del(`/api/thing/things/${a.id}/abilities?ids=${power.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.data.map((x: { identifier: string }) => x.identifier)).toEqual(['EP']);
    expect((await api.get(`/api/thing/things/${a.id}/abilities`)).body.data).toEqual([
      expect.objectContaining({ abilityId: energy.id, categoryId: category.id, cumulative: true }),
    ]);
    expect((await api.get(`/api/thing/things/${b.id}/abilities`)).body.data).toHaveLength(2);
    // Removing again, or with the repeated-parameter form, is harmless.
    expect(
      (await api.del(`/api/thing/things/${a.id}/abilities?ids=${power.id}&ids=${energy.id}`)).body.data,
    ).toEqual([]);

    const map = await t.app.services.things.effectiveAbilities([a.id, b.id, 9999]);
    expect(map.get(a.id)).toEqual([]);
    expect(map.get(b.id)?.map((x) => x.identifier)).toEqual(['P', 'EP']);
    expect(map.get(9999)).toEqual([]);
    expect((await t.app.services.things.effectiveAbilities([])).size).toBe(0);

    // A new category ability reaches every thing that has not removed it.
    await api.post(`/api/thing/categories/${category.id}/abilities`, {
      identifier: 'Q',
      name: '无功',
      sort: 9,
    });
    expect(
      (await api.get(`/api/thing/things/${a.id}/abilities`)).body.data.map(
        (x: { identifier: string }) => x.identifier,
      ),
    ).toEqual(['Q']);

    const other = (await api.post('/api/thing/categories', { name: '水表' })).body.data;
    const foreign = (
      await api.post(`/api/thing/categories/${other.id}/abilities`, { identifier: 'F', name: 'f' })
    ).body.data;
    expect((await api.del(`/api/thing/things/${b.id}/abilities?ids=${foreign.id}`)).status).toBe(404);
    expect((await api.del(`/api/thing/things/${b.id}/abilities?ids=x,1`)).status).toBe(400);
    expect((await api.del(`/api/thing/things/${b.id}/abilities`)).status).toBe(400);
    expect((await api.del(`/api/thing/things/9999/abilities?ids=${power.id}`)).status).toBe(404);
    expect((await api.get('/api/thing/things/9999/abilities')).status).toBe(404);

    // Deleting a category ability drops the removals of it; deleting the thing drops the rest.
    expect((await api.del(`/api/thing/categories/abilities/${power.id}`)).status).toBe(200);
    expect((await api.del(`/api/thing/things/${a.id}`)).status).toBe(200);
    const left = await t.app.db.db.selectFrom('thing_ability_removals').selectAll().execute();
    expect(left).toEqual([]);
  });

  it('gives each thing a device token, found by thingByToken, and regenerates it', async () => {
    const { things } = await seedDevices(api, 2);
    const [a, b] = things;
    const first = await api.get(`/api/thing/things/${a.id}/token`);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({
      thingId: a.id,
      accessToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const other = (await api.get(`/api/thing/things/${b.id}/token`)).body.data.accessToken;
    expect(other).not.toBe(first.body.data.accessToken);
    expect((await t.app.services.things.thingByToken(first.body.data.accessToken))?.id).toBe(a.id);

    const renewed = await api.post(`/api/thing/things/${a.id}/token`);
    expect(renewed.status).toBe(200);
    expect(renewed.body.data.accessToken).not.toBe(first.body.data.accessToken);
    expect(await t.app.services.things.thingByToken(first.body.data.accessToken)).toBeUndefined();
    expect(await t.app.services.things.thingByToken(renewed.body.data.accessToken)).toMatchObject({
      id: a.id,
      identifier: 'M1',
    });
    expect((await api.get(`/api/thing/things/${a.id}/token`)).body.data).toEqual(renewed.body.data);
    expect((await api.get('/api/thing/things/9999/token')).status).toBe(404);
    expect((await api.post('/api/thing/things/9999/token')).status).toBe(404);
    expect(await t.app.services.things.thingByToken('nope')).toBeUndefined();
  });

  it('moving a thing to a model of another category forgets its removals', async () => {
    const { power, things } = await seedDevices(api, 1);
    const thing = things[0];
    await api.del(`/api/thing/things/${thing.id}/abilities?ids=${power.id}`);
    const pumps = (await api.post('/api/thing/categories', { name: '水泵' })).body.data;
    await api.post(`/api/thing/categories/${pumps.id}/abilities`, { identifier: 'Flow', name: '流量' });
    const pumpModel = (await api.post('/api/thing/models', { categoryId: pumps.id, name: 'P1' })).body.data;
    const moved = await api.put(`/api/thing/things/${thing.id}`, {
      identifier: 'M1',
      name: 'x',
      modelId: pumpModel.id,
    });
    expect(moved.body.data).toMatchObject({ categoryId: pumps.id, categoryName: '水泵' });
    expect((await api.get(`/api/thing/things/${thing.id}/abilities`)).body.data).toMatchObject([
      { identifier: 'Flow' },
    ]);
    expect(await t.app.db.db.selectFrom('thing_ability_removals').selectAll().execute()).toEqual([]);
  });

  it('lets a non-admin read everything but refuses every write, token and import call with 403', async () => {
    const { category, power, model, things } = await seedDevices(api, 1);
    const thing = things[0];
    await createUser(t.app, { username: 'editor', password: 'Editor123', userLevel: 2 });
    const { token } = await login(t.app, 'editor', 'Editor123');
    const editor = apiAs(() => t.app, token);

    const reads = [
      '/api/thing/categories',
      `/api/thing/categories/${category.id}/abilities`,
      '/api/thing/models',
      `/api/thing/models/${model.id}/abilities`,
      '/api/thing/things',
      `/api/thing/things/${thing.id}`,
      `/api/thing/things/${thing.id}/abilities`,
      '/api/units?pageSize=1000',
    ];
    for (const url of reads) expect((await editor.get(url)).status, url).toBe(200);

    const writes: [keyof Api, string, unknown?][] = [
      ['post', '/api/thing/categories', { name: 'x' }],
      ['put', `/api/thing/categories/${category.id}`, { name: 'x' }],
      ['del', `/api/thing/categories/${category.id}`],
      ['post', `/api/thing/categories/${category.id}/abilities`, { identifier: 'X', name: 'x' }],
      ['patch', `/api/thing/categories/abilities/${category.id}`, [{ id: power.id, name: 'x' }]],
      ['del', `/api/thing/categories/abilities/${power.id}`],
      ['post', '/api/thing/models', { categoryId: category.id, name: 'x' }],
      ['put', `/api/thing/models/${model.id}`, { categoryId: category.id, name: 'x' }],
      ['del', `/api/thing/models/${model.id}`],
      ['patch', `/api/thing/models/abilities/${power.id}`, { modelId: model.id, unit: 'x' }],
      ['post', '/api/thing/things', { identifier: 'X', name: 'x', modelId: model.id }],
      ['put', `/api/thing/things/${thing.id}`, { identifier: 'X', name: 'x', modelId: model.id }],
      ['del', `/api/thing/things/${thing.id}`],
      ['del', `/api/thing/things/${thing.id}/abilities?ids=${power.id}`],
      ['get', `/api/thing/things/${thing.id}/token`],
      ['post', `/api/thing/things/${thing.id}/token`],
      ['get', '/api/thing/things/import-template?format=csv'],
      ['post', '/api/thing/things/import', {}],
    ];
    for (const [method, url, body] of writes) {
      const call = editor[method] as (url: string, body?: unknown) => ReturnType<Api['get']>;
      const res = await call(url, body);
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
    // Nothing changed.
    expect((await api.get(`/api/thing/things/${thing.id}`)).body.data.identifier).toBe('M1');
    expect((await api.get('/api/thing/categories')).body.data.total).toBe(1);

    // Without a token at all: 401.
    expect((await t.app.inject({ method: 'GET', url: '/api/thing/categories' })).statusCode).toBe(401);
  });
});
