import { createCipheriv, randomBytes } from 'node:crypto';
import { type APIRequestContext, expect } from '@playwright/test';
import { ADMIN } from './accounts.ts';

/**
 * Logs in over the API as the console does (the password AES-encrypted with the server's login
 * key) and answers the access token. Specs set their data up this way, then test the screens.
 */
export async function apiToken(
  request: APIRequestContext,
  account: { username: string; password: string } = ADMIN,
): Promise<string> {
  const key = Buffer.from((await (await request.get('/api/auth/login-key')).json()).data.key, 'base64');
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  const password = Buffer.concat([iv, cipher.update(account.password, 'utf8'), cipher.final()]).toString(
    'base64',
  );
  const res = await request.post('/api/auth/login', {
    data: { username: Buffer.from(account.username).toString('base64'), password },
  });
  expect(res.status()).toBe(200);
  return (await res.json()).token;
}

/** The headers of an admin's API calls. */
export async function apiLogin(request: APIRequestContext): Promise<Record<string, string>> {
  return { 'x-Authorization': `Bearer ${await apiToken(request)}` };
}

/** A POST that must succeed; answers its `data`. */
export async function post<T>(
  request: APIRequestContext,
  headers: Record<string, string>,
  path: string,
  data: unknown,
) {
  const res = await request.post(path, { headers, data });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json()).data as T;
}

export interface DeviceSpec {
  category: string;
  model: string;
  thing: { identifier: string; name: string };
  /** The one numeric ability the device reports. */
  ability: { identifier: string; name: string; unit: string };
}

/**
 * A device of its own category and model, with one numeric ability, made over the API: what a
 * spec needs before it publishes points and watches a screen react.
 */
export async function createDevice(
  request: APIRequestContext,
  headers: Record<string, string>,
  spec: DeviceSpec,
) {
  const category = await post<{ id: number }>(request, headers, '/api/thing/categories', {
    name: spec.category,
  });
  await post(request, headers, `/api/thing/categories/${category.id}/abilities`, {
    ...spec.ability,
    dataType: 'number',
  });
  const model = await post<{ id: number }>(request, headers, '/api/thing/models', {
    categoryId: category.id,
    name: spec.model,
  });
  const thing = await post<{ id: number }>(request, headers, '/api/thing/things', {
    ...spec.thing,
    modelId: model.id,
  });
  return { category, model, thing };
}
