import { groupCreate, groupDelete, groupList, groupUpdate } from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../../plugins/route.ts';
import type { GroupService } from './service.ts';

const options = { config: { resource: '/sys_management/group' } };

/** /api/groups (/sys_management/group). */
export const groupRoutes: FastifyPluginAsync<{ service: GroupService }> = async (app, { service }) => {
  route(app, groupList, options, async (request) => service.list(request.query));
  route(app, groupCreate, options, async (request) => service.create(request.body));
  route(app, groupUpdate, options, async (request) => service.update(request.params.id, request.body));
  route(app, groupDelete, options, async (request) => {
    await service.remove(request.params.id);
    return { ok: true as const };
  });
};
