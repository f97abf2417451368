import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../test/helpers.ts';
import { type Api, apiAs, seedDevices } from './testing.ts';

describe.each(dialects())('device categories, abilities and models on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let apiEn: Api;
  beforeEach(async () => {
    t = await buildTestApp(dialect);
    const { token } = await login(t.app);
    api = apiAs(() => t.app, token);
    apiEn = apiAs(() => t.app, token, { 'accept-language': 'en' });
  });
  afterEach(async () => {
    await t.close();
  });

  describe('categories', () => {
    it('creates, lists with paging and search, updates and deletes', async () => {
      for (const name of ['电表', '水表', 'Air Compressor', 'air dryer', '100%_meter']) {
        const res = await api.post('/api/thing/categories', { name, description: `${name}!` });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.data).toMatchObject({ id: expect.any(Number), name, abilityCount: 0, modelCount: 0 });
        expect(res.body.data.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      }
      const page = await api.get('/api/thing/categories?page=2&pageSize=2');
      expect(page.status).toBe(200);
      expect(page.body.data).toMatchObject({ total: 5, page: 2, pageSize: 2 });
      expect(page.body.data.list.map((c: { name: string }) => c.name)).toEqual([
        'Air Compressor',
        'air dryer',
      ]);

      const search = await api.get(`/api/thing/categories?name=${encodeURIComponent('AIR')}`);
      expect(search.body.data.total).toBe(2);
      // LIKE wildcards in the search text are taken literally.
      const literal = await api.get(`/api/thing/categories?name=${encodeURIComponent('0%_')}`);
      expect(literal.body.data.list.map((c: { name: string }) => c.name)).toEqual(['100%_meter']);
      expect((await api.get('/api/thing/categories?name=%25')).body.data.total).toBe(1);

      const first = page.body.data.list[0];
      const updated = await api.put(`/api/thing/categories/${first.id}`, {
        name: '空压机',
        description: 'x',
      });
      expect(updated.status).toBe(200);
      expect(updated.body.data).toMatchObject({ id: first.id, name: '空压机', description: 'x' });

      expect((await api.del(`/api/thing/categories/${first.id}`)).body).toEqual({ data: { ok: true } });
      expect((await api.get('/api/thing/categories')).body.data.total).toBe(4);
      const gone = await api.del(`/api/thing/categories/${first.id}`);
      expect(gone.status).toBe(404);
      expect(gone.body.code).toBe('NOT_FOUND');
      expect((await api.put(`/api/thing/categories/${first.id}`, { name: 'z' })).status).toBe(404);
    });

    it('refuses a duplicate name (ignoring case) with 409 naming it', async () => {
      await api.post('/api/thing/categories', { name: 'Meter' });
      const other = (await api.post('/api/thing/categories', { name: 'Pump' })).body.data;
      const dup = await api.post('/api/thing/categories', { name: 'meter' });
      expect(dup.status).toBe(409);
      expect(dup.body).toEqual({ code: 'CONFLICT', message: '类别名称“meter”已存在' });
      const rename = await apiEn.put(`/api/thing/categories/${other.id}`, { name: 'METER' });
      expect(rename.status).toBe(409);
      expect(rename.body.message).toBe('A category named "METER" already exists');
      // Keeping its own name is no clash.
      expect(
        (await api.put(`/api/thing/categories/${other.id}`, { name: 'Pump', description: 'd' })).status,
      ).toBe(200);
    });

    it('validates input with 400', async () => {
      const missing = await api.post('/api/thing/categories', { description: 'x' });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ code: 'VALIDATION', message: '缺少必填字段 name' });
      expect((await api.post('/api/thing/categories', { name: '' })).status).toBe(400);
      expect((await api.post('/api/thing/categories', { name: '   ' })).body).toEqual({
        code: 'VALIDATION',
        message: '缺少必填字段 name',
      });
      expect((await api.get('/api/thing/categories?pageSize=1001')).status).toBe(400);
      expect((await api.get('/api/thing/categories?page=0')).status).toBe(400);
      expect((await api.del('/api/thing/categories/abc')).status).toBe(400);
    });

    it('refuses to delete a category models use, naming them in the request language', async () => {
      const category = (await api.post('/api/thing/categories', { name: '电表' })).body.data;
      for (const name of ['A型', 'B型', 'C型'])
        await api.post('/api/thing/models', { categoryId: category.id, name });
      const zh = await api.del(`/api/thing/categories/${category.id}`);
      expect(zh.status).toBe(409);
      expect(zh.body).toEqual({ code: 'CONFLICT', message: '类别“电表”仍被 3 个型号使用：A型, B型, C型' });
      const en = await apiEn.del(`/api/thing/categories/${category.id}`);
      expect(en.body.message).toBe('Category "电表" is still used by 3 model(s): A型, B型, C型');
      expect((await api.get('/api/thing/categories')).body.data.list[0]).toMatchObject({ modelCount: 3 });
    });
  });

  describe('category abilities', () => {
    it('creates with defaults, lists, refuses a duplicate identifier, patches in batch and deletes', async () => {
      const category = (await api.post('/api/thing/categories', { name: '电表' })).body.data;
      const url = `/api/thing/categories/${category.id}/abilities`;
      const p = await api.post(url, { identifier: 'P', name: '有功功率', unit: 'kW' });
      expect(p.status).toBe(200);
      expect(p.body.data).toEqual({
        id: expect.any(Number),
        categoryId: category.id,
        identifier: 'P',
        name: '有功功率',
        unit: 'kW',
        dataType: 'number',
        aggregator: 'avg',
        cumulative: false,
        enumOptions: [],
        sort: 0,
      });
      const ep = await api.post(url, {
        identifier: 'EP',
        name: '有功电能',
        unit: 'kWh',
        cumulative: true,
        sort: 2,
      });
      expect(ep.body.data).toMatchObject({ cumulative: true, aggregator: 'sum' });
      const state = await api.post(url, {
        identifier: 'state',
        name: '运转状态',
        dataType: 'enum',
        aggregator: 'last',
        enumOptions: [
          { value: '0', label: '停机' },
          { value: '1', label: '运行' },
        ],
        sort: 1,
      });
      expect(state.status).toBe(200);

      const dup = await api.post(url, { identifier: 'P', name: 'again' });
      expect(dup.status).toBe(409);
      expect(dup.body.message).toBe('类别“电表”中已有标识为“P”的能力');
      // The same identifier in another category is fine; identifiers are case-sensitive.
      const other = (await api.post('/api/thing/categories', { name: '水表' })).body.data;
      expect(
        (await api.post(`/api/thing/categories/${other.id}/abilities`, { identifier: 'P', name: 'p' }))
          .status,
      ).toBe(200);
      expect((await api.post(url, { identifier: 'p', name: 'lower p' })).status).toBe(200);

      const list = await api.get(url);
      expect(list.status).toBe(200);
      expect(list.body.data.map((a: { identifier: string }) => a.identifier)).toEqual([
        'P',
        'p',
        'state',
        'EP',
      ]);
      expect((await api.get('/api/thing/categories')).body.data.list[0]).toMatchObject({ abilityCount: 4 });

      const patched = await api.patch(`/api/thing/categories/abilities/${category.id}`, [
        { id: p.body.data.id, name: '总有功功率', aggregator: 'max' },
        { id: ep.body.data.id, unit: 'MWh', sort: 0 },
      ]);
      expect(patched.status).toBe(200);
      const byId = new Map(patched.body.data.map((a: { id: number }) => [a.id, a]));
      expect(byId.get(p.body.data.id)).toMatchObject({ name: '总有功功率', aggregator: 'max', unit: 'kW' });
      expect(byId.get(ep.body.data.id)).toMatchObject({ unit: 'MWh', cumulative: true, name: '有功电能' });

      // An ability of another category fails the whole batch.
      const foreignId = (await api.get(`/api/thing/categories/${other.id}/abilities`)).body.data[0].id;
      const foreign = await api.patch(`/api/thing/categories/abilities/${category.id}`, [
        { id: p.body.data.id, name: 'changed' },
        { id: foreignId, name: 'x' },
      ]);
      expect(foreign.status).toBe(404);
      expect(foreign.body.message).toBe(`能力 ${foreignId} 不属于类别“电表”`);
      expect((await api.get(url)).body.data.find((a: { id: number }) => a.id === p.body.data.id).name).toBe(
        '总有功功率',
      );

      // Only a number can be a counter.
      const badCounter = await api.patch(`/api/thing/categories/abilities/${category.id}`, [
        { id: state.body.data.id, cumulative: true },
      ]);
      expect(badCounter.status).toBe(422);

      expect((await api.del(`/api/thing/categories/abilities/${p.body.data.id}`)).status).toBe(200);
      expect((await api.get(url)).body.data).toHaveLength(3);
      expect((await api.del(`/api/thing/categories/abilities/${p.body.data.id}`)).status).toBe(404);
      expect((await api.get('/api/thing/categories/9999/abilities')).status).toBe(404);
    });

    it('validates ability input with 400', async () => {
      const category = (await api.post('/api/thing/categories', { name: '电表' })).body.data;
      const url = `/api/thing/categories/${category.id}/abilities`;
      const badIdentifier = await apiEn.post(url, { identifier: '1P', name: 'x' });
      expect(badIdentifier.status).toBe(400);
      expect(badIdentifier.body).toEqual({
        code: 'VALIDATION',
        message: expect.stringContaining('identifier'),
      });
      expect((await api.post(url, { identifier: 'a b', name: 'x' })).status).toBe(400);
      expect((await api.post(url, { identifier: 'P' })).body).toEqual({
        code: 'VALIDATION',
        message: '缺少必填字段 name',
      });
      const badType = await api.post(url, { identifier: 'P', name: 'x', dataType: 'float' });
      expect(badType.status).toBe(400);
      expect(badType.body.code).toBe('VALIDATION');
      expect((await api.post(url, { identifier: 'P', name: 'x', aggregator: 'median' })).status).toBe(400);
      expect((await api.patch(`/api/thing/categories/abilities/${category.id}`, [])).status).toBe(400);
      const counter = await api.post(url, {
        identifier: 'S',
        name: 's',
        dataType: 'string',
        cumulative: true,
      });
      expect(counter.status).toBe(422);
      expect(counter.body.code).toBe('UNPROCESSABLE');
    });
  });

  describe('models', () => {
    it('creates, lists with paging, category filter and search, updates and deletes', async () => {
      const meter = (await api.post('/api/thing/categories', { name: '电表' })).body.data;
      const pump = (await api.post('/api/thing/categories', { name: '水泵' })).body.data;
      for (const name of ['DTSD-A', 'DTSD-B', 'PM800']) {
        const res = await api.post('/api/thing/models', { categoryId: meter.id, name, description: name });
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({
          categoryId: meter.id,
          categoryName: '电表',
          name,
          thingCount: 0,
        });
      }
      const p = (await api.post('/api/thing/models', { categoryId: pump.id, name: 'dtsd-a' })).body.data;

      const all = await api.get('/api/thing/models?pageSize=2');
      expect(all.body.data).toMatchObject({ total: 4, page: 1, pageSize: 2 });
      expect(all.body.data.list).toHaveLength(2);
      expect((await api.get(`/api/thing/models?categoryId=${pump.id}`)).body.data.list).toMatchObject([
        { id: p.id, categoryName: '水泵' },
      ]);
      expect((await api.get('/api/thing/models?name=DTSD')).body.data.total).toBe(3);
      expect((await api.get(`/api/thing/models?name=dtsd&categoryId=${meter.id}`)).body.data.total).toBe(2);

      const dup = await api.post('/api/thing/models', { categoryId: meter.id, name: 'pm800' });
      expect(dup.status).toBe(409);
      expect(dup.body.message).toBe('类别“电表”下已有名为“pm800”的型号');
      const missing = await api.post('/api/thing/models', { categoryId: 999, name: 'x' });
      expect(missing.status).toBe(422);
      expect(missing.body).toEqual({ code: 'UNPROCESSABLE', message: '类别 999 不存在' });
      expect((await api.post('/api/thing/models', { name: 'x' })).status).toBe(400);

      const moved = await api.put(`/api/thing/models/${p.id}`, { categoryId: meter.id, name: 'PM900' });
      expect(moved.status).toBe(200);
      expect(moved.body.data).toMatchObject({ categoryId: meter.id, categoryName: '电表', name: 'PM900' });
      expect(
        (await api.put(`/api/thing/models/${p.id}`, { categoryId: meter.id, name: 'DTSD-B' })).status,
      ).toBe(409);
      expect((await api.del(`/api/thing/models/${p.id}`)).status).toBe(200);
      expect((await api.del(`/api/thing/models/${p.id}`)).status).toBe(404);
      expect((await api.get('/api/thing/models')).body.data.total).toBe(3);
    });

    it('refuses to delete a model things use, naming them', async () => {
      const { model } = await seedDevices(api, 2);
      const res = await api.del(`/api/thing/models/${model.id}`);
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('型号“A型”仍被 2 个设备使用：电表1, 电表2');
      expect((await apiEn.del(`/api/thing/models/${model.id}`)).body.message).toBe(
        'Model "A型" is still used by 2 device(s): 电表1, 电表2',
      );
      expect((await api.get('/api/thing/models')).body.data.list[0].thingCount).toBe(2);
    });

    it('inherits category abilities, applies overrides and resets them, for models and their things', async () => {
      const { category, power, energy, model, things } = await seedDevices(api, 1);
      const other = (await api.post('/api/thing/models', { categoryId: category.id, name: 'B型' })).body.data;
      const inherited = await api.get(`/api/thing/models/${model.id}/abilities`);
      expect(inherited.status).toBe(200);
      expect(inherited.body.data).toEqual([
        {
          abilityId: power.id,
          categoryId: category.id,
          identifier: 'P',
          name: '有功功率',
          unit: 'kW',
          dataType: 'number',
          aggregator: 'avg',
          cumulative: false,
          enumOptions: [],
          sort: 0,
          overridden: false,
        },
        expect.objectContaining({
          abilityId: energy.id,
          identifier: 'EP',
          cumulative: true,
          overridden: false,
        }),
      ]);

      const patched = await api.patch(`/api/thing/models/abilities/${power.id}`, {
        modelId: model.id,
        unit: 'W',
        name: '功率',
      });
      expect(patched.status).toBe(200);
      expect(patched.body.data).toMatchObject({
        abilityId: power.id,
        unit: 'W',
        name: '功率',
        overridden: true,
      });
      // A second patch merges with the first.
      const sorted = await api.patch(`/api/thing/models/abilities/${power.id}`, {
        modelId: model.id,
        sort: 5,
      });
      expect(sorted.body.data).toMatchObject({ unit: 'W', name: '功率', sort: 5 });
      const modelView = (await api.get(`/api/thing/models/${model.id}/abilities`)).body.data;
      expect(modelView.map((a: { identifier: string }) => a.identifier)).toEqual(['EP', 'P']);
      const thingView = (await api.get(`/api/thing/things/${things[0].id}/abilities`)).body.data;
      expect(thingView.find((a: { identifier: string }) => a.identifier === 'P')).toMatchObject({
        unit: 'W',
        name: '功率',
        overridden: true,
      });
      // Other models of the category are untouched; the category's own ability too.
      expect((await api.get(`/api/thing/models/${other.id}/abilities`)).body.data[0]).toMatchObject({
        unit: 'kW',
        overridden: false,
      });
      expect((await api.get(`/api/thing/categories/${category.id}/abilities`)).body.data[0].unit).toBe('kW');
      // A category change shows through where the model does not override.
      await api.patch(`/api/thing/categories/abilities/${category.id}`, [
        { id: power.id, aggregator: 'max' },
      ]);
      expect((await api.get(`/api/thing/models/${model.id}/abilities`)).body.data[1]).toMatchObject({
        identifier: 'P',
        unit: 'W',
        aggregator: 'max',
      });

      const reset = await api.patch(`/api/thing/models/abilities/${power.id}`, {
        modelId: model.id,
        reset: true,
      });
      expect(reset.body.data).toMatchObject({ unit: 'kW', name: '有功功率', sort: 0, overridden: false });
      expect((await api.get(`/api/thing/things/${things[0].id}/abilities`)).body.data[0]).toMatchObject({
        identifier: 'P',
        unit: 'kW',
        overridden: false,
      });

      const foreignCategory = (await api.post('/api/thing/categories', { name: '水表' })).body.data;
      const foreign = (
        await api.post(`/api/thing/categories/${foreignCategory.id}/abilities`, {
          identifier: 'F',
          name: '流量',
        })
      ).body.data;
      const wrong = await api.patch(`/api/thing/models/abilities/${foreign.id}`, {
        modelId: model.id,
        unit: 'x',
      });
      expect(wrong.status).toBe(404);
      expect(
        (await api.patch(`/api/thing/models/abilities/${power.id}`, { modelId: 999, unit: 'x' })).status,
      ).toBe(404);
      expect((await api.patch(`/api/thing/models/abilities/${power.id}`, { unit: 'x' })).status).toBe(400);
      expect((await api.get('/api/thing/models/999/abilities')).status).toBe(404);
    });
  });
});
