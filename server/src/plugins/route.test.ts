import { endpoint, IdParams, Ok } from '@kilowatch/contract';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { route } from './route.ts';

const Item = Type.Object({ id: Type.Integer(), name: Type.String() });
const itemGet = endpoint({
  method: 'GET',
  path: '/api/items/:id',
  params: IdParams,
  response: Item,
  tags: ['test'],
  summary: 'One item',
});
const itemRaw = endpoint({
  method: 'POST',
  path: '/api/items/raw',
  body: Item,
  response: Item,
  raw: true,
  tags: ['test'],
  summary: 'Echo, unwrapped',
});
const itemGone = endpoint({
  method: 'DELETE',
  path: '/api/items/:id',
  params: IdParams,
  response: Ok,
  responses: { 409: Type.Object({ code: Type.String(), message: Type.String(), holders: Type.Integer() }) },
  tags: ['test'],
  summary: 'Delete an item; 409 with the holders while any hold it',
});

async function build() {
  const app = Fastify();
  const schemas: Record<string, unknown> = {};
  app.addHook('onRoute', (r) => {
    schemas[`${r.method} ${r.url}`] = r.schema;
  });
  await app.register(
    async (api) => {
      route(api, itemGet, {}, async (request) => ({ id: request.params.id, name: `#${request.params.id}` }));
      route(api, itemRaw, {}, async (request) => request.body);
      route(api, itemGone, { config: { resource: '/items' } }, async (request, reply) =>
        request.params.id === 1
          ? reply.status(409).send({ code: 'CONFLICT', message: 'held', holders: 2 })
          : { ok: true as const },
      );
    },
    { prefix: '/api' },
  );
  await app.ready();
  return { app, schemas };
}

describe('route', () => {
  it('registers the endpoint under its plugin prefix and wraps the answer as { data }', async () => {
    const { app } = await build();
    const res = await app.inject({ method: 'GET', url: '/api/items/7' });
    expect(res.json()).toEqual({ data: { id: 7, name: '#7' } });
    expect((await app.inject({ method: 'GET', url: '/api/items/x' })).statusCode).toBe(400);
    const raw = await app.inject({ method: 'POST', url: '/api/items/raw', payload: { id: 1, name: 'a' } });
    expect(raw.json()).toEqual({ id: 1, name: 'a' });
  });

  it('passes a reply the handler sent itself through, and documents its own statuses with the errors', async () => {
    const { app, schemas } = await build();
    expect((await app.inject({ method: 'DELETE', url: '/api/items/1' })).json()).toEqual({
      code: 'CONFLICT',
      message: 'held',
      holders: 2,
    });
    expect((await app.inject({ method: 'DELETE', url: '/api/items/2' })).json()).toEqual({
      data: { ok: true },
    });
    const schema = schemas['DELETE /api/items/:id'] as { response: object; tags: string[]; summary: string };
    expect(Object.keys(schema.response)).toEqual(['200', '409', '4xx', '5xx']);
    expect(schema).toMatchObject({ tags: ['test'], summary: itemGone.summary });
  });

  it('refuses an endpoint outside the prefix of the plugin it is registered in', async () => {
    const app = Fastify();
    await app.register(
      async (api) => {
        expect(() => route(api, itemGet, {}, async () => ({ id: 1, name: '' }))).toThrow(/\/api\/v2/);
      },
      { prefix: '/api/v2' },
    );
    await app.ready();
  });
});
