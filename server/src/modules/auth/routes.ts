import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Data,
  ErrorBody,
  LoginBody,
  LoginKey,
  Me,
  MeQuery,
  Ok,
  PasswordChange,
  RefreshBody,
  TokenPair,
} from '@kilowatch/contract';
import { requireUser } from './request.ts';
import type { AuthService } from './service.ts';

const errors = { '4xx': ErrorBody, '5xx': ErrorBody };
const tags = ['auth'];

/** /api/auth: login, session refresh, logout and the current user (spec §7). */
export const authRoutes: FastifyPluginAsyncTypebox<{ service: AuthService }> = async (app, { service }) => {
  app.get(
    '/login-key',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Key the console encrypts the login password with',
        response: { 200: Data(LoginKey), ...errors },
      },
    },
    async () => ({ data: service.loginKey() }),
  );

  app.post(
    '/login',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Log in; returns the token pair unwrapped (not inside `data`)',
        description:
          'username: base64 of the UTF-8 name (trimmed). password: base64(iv[16] ‖ AES-256-CBC/PKCS#7 ciphertext) with the key from /api/auth/login-key.',
        body: LoginBody,
        response: { 200: TokenPair, ...errors },
      },
    },
    // Spec §7: the console uses the login response as-is, so it is the one unwrapped answer.
    async (request) => service.login({ ...request.body, ip: request.ip }),
  );

  app.get(
    '/me',
    {
      config: { queryToken: true },
      schema: {
        tags,
        summary: 'The current user; the access token may also be given as ?token=',
        querystring: MeQuery,
        response: { 200: Data(Me), ...errors },
      },
    },
    async (request) => ({ data: await service.me(requireUser(request).id) }),
  );

  app.post(
    '/token',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Exchange a refresh token for a new pair (the old refresh token is spent)',
        body: RefreshBody,
        response: { 200: Data(TokenPair), ...errors },
      },
    },
    async (request) => ({ data: await service.refresh(request.body.refreshToken) }),
  );

  app.post(
    '/logout',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'End the session of a refresh token; succeeds even if it is already dead',
        body: RefreshBody,
        response: { 200: Data(Ok), ...errors },
      },
    },
    async (request) => {
      await service.logout(request.body.refreshToken);
      return { data: { ok: true as const } };
    },
  );

  app.post(
    '/password',
    {
      schema: {
        tags,
        summary: 'Change your own password; ends your other sessions, this one stays logged in',
        description:
          'A wrong current password is 400 VALIDATION and counts as a failed login for the login throttle (429 + Retry-After while it holds).',
        body: PasswordChange,
        response: { 200: Data(Ok), ...errors },
      },
    },
    async (request) => {
      await service.changePassword(requireUser(request), { ...request.body, ip: request.ip });
      return { data: { ok: true as const } };
    },
  );
};
