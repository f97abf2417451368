import { resourceList, roleCreate, roleDelete, roleList, roleUpdate } from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../../plugins/route.ts';
import type { RoleService } from './service.ts';

const options = { config: { resource: '/sys_management/role' } };

/** /api/roles (/sys_management/role) and /api/resources (/sys_management/route). */
export const roleRoutes: FastifyPluginAsync<{ service: RoleService }> = async (app, { service }) => {
  route(app, resourceList, { config: { resource: '/sys_management/route' } }, async () =>
    service.resources(),
  );
  route(app, roleList, options, async (request) => service.list(request.query));
  route(app, roleCreate, options, async (request) => service.create(request.body));
  route(app, roleUpdate, options, async (request) => service.update(request.params.id, request.body));
  route(app, roleDelete, options, async (request) => {
    await service.remove(request.params.id);
    return { ok: true as const };
  });
};
