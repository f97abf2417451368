import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, dialects, login, type TestApp } from '../../../test/helpers.ts';

describe.each(dialects())('units API on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  beforeEach(async () => {
    t = await buildTestApp(dialect);
    token = (await login(t.app)).token;
  });
  afterEach(async () => {
    await t.close();
  });
  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
    return { status: res.statusCode, body: res.json() };
  };

  it('lists the seeded standard units, paged, the console asking for 1000 at once', async () => {
    const all = await get('/api/units?page=1&pageSize=1000');
    expect(all.status).toBe(200);
    const { list, total, page, pageSize } = all.body.data;
    expect({ page, pageSize }).toEqual({ page: 1, pageSize: 1000 });
    expect(list).toHaveLength(total);
    const symbols = list.map((u: { symbol: string }) => u.symbol);
    for (const s of [
      'kW',
      'kWh',
      'kvar',
      'kvarh',
      'kVA',
      'V',
      'A',
      'Hz',
      'PF',
      '℃',
      '%',
      'm³',
      'm³/h',
      't',
      'MPa',
      'h',
      '次',
    ])
      expect(symbols).toContain(s);
    expect(list.find((u: { symbol: string }) => u.symbol === 'kWh')).toEqual({
      id: expect.any(Number),
      symbol: 'kWh',
      name: 'kilowatt-hour',
      quantity: 'energy',
    });
    const second = await get('/api/units?page=2&pageSize=5');
    expect(second.body.data.list.map((u: { symbol: string }) => u.symbol)).toEqual(symbols.slice(5, 10));
    expect(second.body.data.total).toBe(total);
    // Defaults: page 1, pageSize 10.
    expect((await get('/api/units')).body.data).toMatchObject({ page: 1, pageSize: 10, total });
  });

  it('searches symbol and name ignoring case, and rejects pageSize above 1000', async () => {
    const kwh = await get('/api/units?name=KWH&pageSize=1000');
    expect(kwh.body.data.list.map((u: { symbol: string }) => u.symbol)).toEqual(['kWh']);
    const hour = await get('/api/units?name=hour&pageSize=1000');
    expect(hour.body.data.list.map((u: { symbol: string }) => u.symbol)).toContain('h');
    expect((await get(`/api/units?name=${encodeURIComponent('次')}`)).body.data.total).toBe(1);
    expect((await get('/api/units?pageSize=1001')).status).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/units' })).statusCode).toBe(401);
  });
});
