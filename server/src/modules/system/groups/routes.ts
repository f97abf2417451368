import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Data, Group, GroupInput, IdParams, KeywordQuery, Ok, Page } from '@kilowatch/contract';
import { errors } from '../shared.ts';
import type { GroupService } from './service.ts';

const tags = ['system'];
const config = { resource: '/sys_management/group' };

/** /api/groups (/sys_management/group). */
export const groupRoutes: FastifyPluginAsyncTypebox<{ service: GroupService }> = async (app, { service }) => {
  app.get(
    '/groups',
    {
      config,
      schema: {
        tags,
        summary: 'User groups, paged; name searches the group name',
        querystring: KeywordQuery,
        response: { 200: Data(Page(Group)), ...errors },
      },
    },
    async (request) => ({ data: await service.list(request.query) }),
  );
  app.post(
    '/groups',
    {
      config,
      schema: {
        tags,
        summary: 'Create a group (409 when the name is taken)',
        body: GroupInput,
        response: { 200: Data(Group), ...errors },
      },
    },
    async (request) => ({ data: await service.create(request.body) }),
  );
  app.put(
    '/groups/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Rename a group or change its description',
        params: IdParams,
        body: GroupInput,
        response: { 200: Data(Group), ...errors },
      },
    },
    async (request) => ({ data: await service.update(request.params.id, request.body) }),
  );
  app.delete(
    '/groups/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a group; its members stay, only the membership goes',
        params: IdParams,
        response: { 200: Data(Ok), ...errors },
      },
    },
    async (request) => {
      await service.remove(request.params.id);
      return { data: { ok: true as const } };
    },
  );
};
