import type { FastifyInstance, InjectOptions } from 'fastify';
import { bearer } from '../../../test/helpers.ts';

/** Test helper: JSON calls as one logged-in user, returning status and parsed body. */
export function apiAs(app: () => FastifyInstance, token: string, headers: Record<string, string> = {}) {
  const call = async (method: InjectOptions['method'], url: string, payload?: unknown) => {
    const res = await app().inject({
      method,
      url,
      headers: { ...bearer(token), ...headers },
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the body holds
    const body: any = res.headers['content-type']?.toString().includes('json') ? res.json() : res.body;
    return { status: res.statusCode, body, res };
  };
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, payload?: unknown) => call('POST', url, payload ?? {}),
    put: (url: string, payload: unknown) => call('PUT', url, payload),
    patch: (url: string, payload: unknown) => call('PATCH', url, payload),
    del: (url: string) => call('DELETE', url),
  };
}

export type Api = ReturnType<typeof apiAs>;

/** Anything that can POST JSON as a logged-in admin (other modules' tests bring their own client). */
export interface Poster {
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the body holds
  post: (url: string, payload?: unknown) => Promise<{ status: number; body: any }>;
}

/** A category with two abilities (power, energy counter), a model and `things` things of it. */
export async function seedDevices(api: Poster, things = 0) {
  const category = (await api.post('/api/thing/categories', { name: '电表', description: 'meters' })).body
    .data;
  const power = (
    await api.post(`/api/thing/categories/${category.id}/abilities`, {
      identifier: 'P',
      name: '有功功率',
      unit: 'kW',
    })
  ).body.data;
  const energy = (
    await api.post(`/api/thing/categories/${category.id}/abilities`, {
      identifier: 'EP',
      name: '有功电能',
      unit: 'kWh',
      cumulative: true,
      sort: 1,
    })
  ).body.data;
  const model = (await api.post('/api/thing/models', { categoryId: category.id, name: 'A型' })).body.data;
  const created = [];
  for (let i = 1; i <= things; i++) {
    created.push(
      (await api.post('/api/thing/things', { identifier: `M${i}`, name: `电表${i}`, modelId: model.id })).body
        .data,
    );
  }
  return { category, power, energy, model, things: created };
}
