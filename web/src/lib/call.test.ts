import {
  authLogin,
  categoryCreate,
  categoryList,
  type Thing,
  type TokenPair,
  telemetryWriteByPathToken,
  thingAbilityRemove,
  thingGet,
  unitList,
} from '@kilowatch/contract';
import type { Static } from 'typebox';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { call, pathOf } from './call.ts';
import { useSession } from './session.ts';

interface Sent {
  url: string;
  method: string | undefined;
  body: unknown;
}

let sent: Sent[];

/** A fetch that records each call and answers `body` as JSON. */
function answer(body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      sent.push({
        url: String(input),
        method: init.method,
        body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
      });
      return new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
    }),
  );
}

beforeEach(() => {
  sent = [];
  useSession.setState({ token: null, refreshToken: null, user: null, roles: [] });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('call', () => {
  it("fills the path's parameters and answers the response's `data`", async () => {
    const thing = { id: 7, name: '电表1' };
    answer({ data: thing });
    const got = await call(thingGet, { params: { id: 7 } });
    expect(sent).toEqual([{ url: '/api/thing/things/7', method: 'GET', body: undefined }]);
    expect(got).toEqual(thing);
    expectTypeOf(got).toEqualTypeOf<Thing>();
  });

  it('sends the query (arrays repeat the key, empty values are left out) and the JSON body', async () => {
    answer({ data: { list: [], total: 0, page: 2, pageSize: 5 } });
    const page = await call(categoryList, { query: { page: 2, pageSize: 5, name: '' }, silent: true });
    expectTypeOf(page).toEqualTypeOf<Static<typeof categoryList.response>>();
    await call(thingAbilityRemove, { params: { id: 3 }, query: { ids: ['1', '2'] } });
    answer({ data: { id: 1, name: '泵' } });
    await call(categoryCreate, { body: { name: '泵' } });
    expect(sent).toEqual([
      { url: '/api/thing/categories?page=2&pageSize=5', method: 'GET', body: undefined },
      { url: '/api/thing/things/3/abilities?ids=1&ids=2', method: 'DELETE', body: undefined },
      { url: '/api/thing/categories', method: 'POST', body: { name: '泵' } },
    ]);
  });

  it('answers the whole body of a raw endpoint (login) and needs no input where none is taken', async () => {
    const pair = { token: 'a', refreshToken: 'r' };
    answer(pair);
    const got = await call(authLogin, { body: { username: 'dQ==', password: 'cA==' }, anonymous: true });
    expect(got).toEqual(pair);
    expectTypeOf(got).toEqualTypeOf<TokenPair>();
    answer({ data: { list: [], total: 0, page: 1, pageSize: 10 } });
    expectTypeOf(await call(unitList)).toEqualTypeOf<Static<typeof unitList.response>>();
  });

  it('encodes path parameters', async () => {
    answer({ data: { accepted: 1, rejected: [] } });
    await call(telemetryWriteByPathToken, { params: { token: 'a/b c' }, body: { P: 1 } });
    expect(sent[0]?.url).toBe('/api/v1/a%2Fb%20c/telemetry');
  });

  it('refuses a path parameter it was not given', () => {
    expect(() => pathOf('/api/thing/things/:id', {})).toThrow(':id');
  });

  it('types what an endpoint takes', () => {
    // @ts-expect-error the id is missing
    expectTypeOf(() => call(thingGet)).toBeFunction();
    // @ts-expect-error categoryCreate takes a body, not a query
    expectTypeOf(() => call(categoryCreate, { query: { name: 'x' } })).toBeFunction();
    // @ts-expect-error ids are numbers
    expectTypeOf(() => call(thingGet, { params: { id: 'x' } })).toBeFunction();
  });
});
