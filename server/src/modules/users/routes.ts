import { userCreate, userDelete, userList, userPasswordReset, userUpdate } from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../plugins/route.ts';
import { requireUser } from '../auth/index.ts';
import type { UserAdminService } from './service.ts';

const options = { config: { resource: '/sys_management/user' } };
const ok = { ok: true as const };

/** /api/users (/sys_management/user). */
export const userRoutes: FastifyPluginAsync<{ service: UserAdminService }> = async (app, { service }) => {
  route(app, userList, options, async (request) => service.list(request.query));
  route(app, userCreate, options, async (request) => service.create(requireUser(request), request.body));
  route(app, userUpdate, options, async (request) =>
    service.update(requireUser(request), request.params.id, request.body),
  );
  route(app, userDelete, options, async (request) => {
    await service.remove(requireUser(request), request.params.id);
    return ok;
  });
  route(app, userPasswordReset, options, async (request) => {
    await service.resetPassword(requireUser(request), request.params.id, request.body.password);
    return ok;
  });
};
