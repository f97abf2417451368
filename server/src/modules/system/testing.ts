import type { FastifyInstance, InjectOptions } from 'fastify';
import { bearer, createUser, login } from '../../../test/helpers.ts';

/** Test helper: JSON calls as one logged-in user, answering status and parsed body. */
export function client(app: () => FastifyInstance, token: string, headers: Record<string, string> = {}) {
  const call = async (method: InjectOptions['method'], url: string, payload?: unknown) => {
    const res = await app().inject({
      method,
      url,
      headers: { ...bearer(token), ...headers },
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the body holds
    const body: any = res.headers['content-type']?.toString().includes('json') ? res.json() : res.body;
    return { status: res.statusCode, body };
  };
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, payload: unknown = {}) => call('POST', url, payload),
    put: (url: string, payload: unknown) => call('PUT', url, payload),
    patch: (url: string, payload: unknown) => call('PATCH', url, payload),
    del: (url: string) => call('DELETE', url),
  };
}
export type Client = ReturnType<typeof client>;

/** An editor (userLevel 2) with the given roles (ids), logged in. */
export async function editorWith(
  app: () => FastifyInstance,
  admin: Client,
  username: string,
  roleIds: number[] = [],
): Promise<{ id: number; api: Client; refreshToken: string }> {
  const user = await createUser(app(), { username, password: 'Editor12', userLevel: 2 });
  if (roleIds.length) {
    const res = await admin.put(`/api/users/${user.id}`, { name: username, userLevel: 2, roleIds });
    if (res.status !== 200) throw new Error(`role assignment failed: ${JSON.stringify(res.body)}`);
  }
  const { token, refreshToken } = await login(app(), username, 'Editor12');
  return { id: user.id, api: client(app, token), refreshToken };
}

/** A role granting `paths`; answers its id. */
export async function roleGranting(admin: Client, code: string, paths: string[]): Promise<number> {
  const res = await admin.post('/api/roles', { code, name: code, resourcePaths: paths });
  if (res.status !== 200) throw new Error(`role creation failed: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}
