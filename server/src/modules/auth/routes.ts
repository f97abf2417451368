import {
  authLogin,
  authLoginKey,
  authLogout,
  authMe,
  authPasswordChange,
  authRefresh,
} from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../plugins/route.ts';
import { requireUser } from './request.ts';
import type { AuthService } from './service.ts';

const ok = { ok: true as const };

/** /api/auth: login, session refresh, logout and the current user (spec §7). */
export const authRoutes: FastifyPluginAsync<{ service: AuthService }> = async (app, { service }) => {
  route(app, authLoginKey, { config: { public: true } }, async () => service.loginKey());

  // Spec §7: the console uses the login response as-is, so it is the one unwrapped answer.
  route(app, authLogin, { config: { public: true } }, async (request) =>
    service.login({ ...request.body, ip: request.ip }),
  );

  route(app, authMe, { config: { queryToken: true } }, async (request) =>
    service.me(requireUser(request).id),
  );

  route(app, authRefresh, { config: { public: true } }, async (request) =>
    service.refresh(request.body.refreshToken),
  );

  route(app, authLogout, { config: { public: true } }, async (request) => {
    await service.logout(request.body.refreshToken);
    return ok;
  });

  route(app, authPasswordChange, {}, async (request) => {
    await service.changePassword(requireUser(request), { ...request.body, ip: request.ip });
    return ok;
  });
};
