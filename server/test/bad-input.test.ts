import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client } from '../src/modules/system/testing.ts';
import { bearer, buildTestApp, createUser, dialects, login, type TestApp } from './helpers.ts';

/**
 * Issue 8, "numbers and ids that poison the database": each call below was a 500, or wrote a row
 * that every later read answered 500 for, or addressed another row than the one named.
 */
describe.each(dialects())('bad numbers, ids and text on %s', (dialect) => {
  let t: TestApp;
  let admin: Client;
  let token: string;
  let regionId: number;
  let categoryId: number;
  let abilityId: number;
  let modelId: number;
  let thingId: number;
  let userId: number;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    token = (await login(t.app)).token;
    admin = client(() => t.app, token);
    regionId = (await admin.post('/api/regions', { name: '一车间' })).body.data.id;
    categoryId = (await admin.post('/api/thing/categories', { name: '电表' })).body.data.id;
    abilityId = (
      await admin.post(`/api/thing/categories/${categoryId}/abilities`, { identifier: 'P', name: '功率' })
    ).body.data.id;
    modelId = (await admin.post('/api/thing/models', { categoryId, name: 'A型' })).body.data.id;
    thingId = (await admin.post('/api/thing/things', { identifier: 'M1', name: '电表1', modelId })).body.data
      .id;
    userId = (await createUser(t.app, { username: 'zhang', password: 'Editor12', userLevel: 2 })).id;
  });
  afterAll(async () => {
    await t.close();
  });

  /** A call with a raw body text, so JSON the client library would not write (1e400) can be sent. */
  const raw = (method: InjectOptions['method'], url: string, body: string, language = 'en') =>
    t.app.inject({
      method,
      url,
      headers: { ...bearer(token), 'content-type': 'application/json', 'accept-language': language },
      payload: body,
    });

  /** Every list the console reads still answers, for every user. */
  const everyListReads = async () => {
    for (const url of [
      '/api/regions',
      '/api/regions?withThings=true',
      `/api/thing/categories/${categoryId}/abilities`,
      `/api/thing/models/${modelId}/abilities`,
      `/api/thing/things/${thingId}/abilities`,
      '/api/thing/things',
      '/api/users',
    ]) {
      const res = await admin.get(url);
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
    }
  };

  const BAD_NUMBERS = ['"Infinity"', '1e400', '"1e400"', '"-Infinity"', '"NaN"', '3000000000', '1.5'];

  it.each(BAD_NUMBERS)('refuses %s as a region sort and keeps the tree readable', async (bad) => {
    const res = await raw(
      'PATCH',
      '/api/regions/order',
      `[{"id":${regionId},"parentId":null,"sort":${bad}}]`,
    );
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('sort') });
    await everyListReads();
  });

  it.each(BAD_NUMBERS)('refuses %s as a category or model ability sort', async (bad) => {
    const category = await raw(
      'PATCH',
      `/api/thing/categories/abilities/${categoryId}`,
      `[{"id":${abilityId},"sort":${bad}}]`,
    );
    expect(category.statusCode, category.body).toBe(400);
    const model = await raw(
      'PATCH',
      `/api/thing/models/abilities/${abilityId}`,
      `{"modelId":${modelId},"sort":${bad}}`,
    );
    expect(model.statusCode, model.body).toBe(400);
    await everyListReads();
  });

  it.each(BAD_NUMBERS)('refuses %s as a user level', async (bad) => {
    const res = await raw('PUT', `/api/users/${userId}`, `{"name":"张","userLevel":${bad}}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toContain('userLevel');
    await everyListReads();
  });

  it.each(BAD_NUMBERS)('refuses %s as a query scale', async (bad) => {
    const res = await raw(
      'POST',
      '/api/query/data',
      `{"resourceType":"thing","resourceId":${thingId},"metricIdentifier":"P","scale":${bad}}`,
    );
    expect(res.statusCode, res.body).toBe(400);
  });

  it('refuses numbers out of range anywhere a number is taken', async () => {
    for (const body of [
      `{"resourceType":"thing","resourceId":${thingId},"metricIdentifier":"P","startTime":1e300}`,
      `{"resourceType":"thing","resourceId":3000000000,"metricIdentifier":"P"}`,
      `{"resourceType":"thing","resourceId":${thingId},"metricIdentifier":"P","categoryId":1e12}`,
    ]) {
      const res = await raw('POST', '/api/query/data', body);
      expect(res.statusCode, `${body}: ${res.body}`).toBe(400);
    }
    const config = await admin.get('/api/query/config?resourceType=thing&resourceId=99999999999');
    expect(config.status).toBe(400);
  });

  it.each(['Infinity', '1e400', '-1', '0', '1.5', '0x1', '1e0', '99999999999999999999', '3000000000'])(
    'refuses ?page=%s on the lists',
    async (page) => {
      for (const url of ['/api/thing/things', '/api/thing/categories', '/api/users', '/api/roles']) {
        const res = await admin.get(`${url}?page=${page}`);
        expect(res.status, `${url}?page=${page}: ${JSON.stringify(res.body)}`).toBe(400);
      }
    },
  );

  it.each([
    'Infinity',
    '-Infinity',
    'NaN',
    '1e400',
    '0x1',
    '1e0',
    '+1',
    '01',
    '1.0',
    '%201',
    '1%20',
    '0b1',
    '0o1',
  ])('refuses the id %s instead of reading it as a number', async (id) => {
    const res = await admin.del(`/api/thing/things/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect((await admin.get(`/api/thing/things/${id}`)).status).toBe(400);
    expect((await admin.get(`/api/thing/categories/${id}/abilities`)).status).toBe(400);
    expect((await admin.get(`/api/thing/things?categoryId=${id}`)).status).toBe(400);
    expect((await admin.get(`/api/regions/${id}/bindings`)).status).toBe(400);
    expect((await admin.get(`/api/board/components/${id}`)).status).toBe(400);
    expect((await admin.del(`/api/thing/things/${thingId}/abilities?ids=${id}`)).status).toBe(400);
  });

  it('still takes plain ids and still finds the thing they refused to delete', async () => {
    expect((await admin.get(`/api/thing/things/${thingId}`)).status).toBe(200);
    expect((await admin.get(`/api/thing/things?categoryId=${categoryId}`)).body.data.total).toBe(1);
  });

  it('refuses a NUL character in any text, body or query, naming the field', async () => {
    const body = await admin.post('/api/thing/categories', { name: 'a\u0000b' });
    expect(body.status, JSON.stringify(body.body)).toBe(400);
    expect(body.body.message).toContain('name');
    const nested = await admin.put(`/api/thing/things/${thingId}`, {
      identifier: 'M1',
      name: '电表1',
      modelId,
      setting: { attributes: [{ identifier: 'loc', name: '位置', value: 'x\u0000' }] },
    });
    expect(nested.status, JSON.stringify(nested.body)).toBe(400);
    expect(nested.body.message).toContain('setting.attributes[0].value');
    const query = await admin.get('/api/thing/things?name=%00');
    expect(query.status, JSON.stringify(query.body)).toBe(400);
    const escaped = await raw('POST', '/api/regions', '{"name":"x\\u0000"}');
    expect(escaped.statusCode, escaped.body).toBe(400);
    await everyListReads();
  });

  it('names the field in the language of the request', async () => {
    const body = `[{"id":${regionId},"parentId":null,"sort":"Infinity"}]`;
    const zh = (await raw('PATCH', '/api/regions/order', body, 'zh-CN')).json().message;
    const es = (await raw('PATCH', '/api/regions/order', body, 'es')).json().message;
    expect(zh).toContain('[0].sort');
    expect(es).toContain('[0].sort');
    expect(zh).not.toEqual(es);
    const nul = await t.app.inject({
      method: 'POST',
      url: '/api/thing/categories',
      headers: { ...bearer(token), 'accept-language': 'zh-CN' },
      payload: { name: '\u0000' },
    });
    expect(nul.json().message).toMatch(/name.*空字符/);
  });

  it('refuses NUL in an imported cell as a row error, on both databases', async () => {
    const boundary = 'zz';
    const csv = 'identifier,name,model\r\nN\u00001,n1,A型\r\nN2,n\u00002,A型\r\n';
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/thing/things/import',
      headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a.csv"\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors).toEqual([
      expect.objectContaining({ row: 2, column: 'identifier' }),
      expect.objectContaining({ row: 3, column: 'name' }),
    ]);
  });

  it('answers 400 to a multipart upload without a boundary', async () => {
    for (const type of [
      'multipart/form-data',
      'multipart/form-data; boundary=',
      'multipart/form-data; charset=utf-8',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/thing/things/import',
        headers: { ...bearer(token), 'content-type': type },
        payload: '--x\r\ncontent-disposition: form-data; name="file"; filename="a.csv"\r\n\r\nx\r\n--x--\r\n',
      });
      expect(res.statusCode, `${type}: ${res.body}`).toBe(400);
    }
  });
});
