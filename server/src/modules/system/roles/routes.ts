import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Data, IdParams, KeywordQuery, Ok, Page, Resource, Role, RoleInput } from '@kilowatch/contract';
import { Type } from 'typebox';
import { errors } from '../shared.ts';
import type { RoleService } from './service.ts';

const tags = ['system'];
const config = { resource: '/sys_management/role' };

/** /api/roles (/sys_management/role) and /api/resources (/sys_management/route). */
export const roleRoutes: FastifyPluginAsyncTypebox<{ service: RoleService }> = async (app, { service }) => {
  app.get(
    '/resources',
    {
      config: { resource: '/sys_management/route' },
      schema: {
        tags,
        summary: "The console's routes that roles can grant, in menu order (parents and leaves)",
        response: { 200: Data(Type.Array(Resource)), ...errors },
      },
    },
    async () => ({ data: await service.resources() }),
  );
  app.get(
    '/roles',
    {
      config,
      schema: {
        tags,
        summary: 'Assignable roles with their granted routes, paged; name searches code and name',
        querystring: KeywordQuery,
        response: { 200: Data(Page(Role)), ...errors },
      },
    },
    async (request) => ({ data: await service.list(request.query) }),
  );
  app.post(
    '/roles',
    {
      config,
      schema: {
        tags,
        summary: 'Create a role (409 when the code is taken; admin and editor are reserved)',
        body: RoleInput,
        response: { 200: Data(Role), ...errors },
      },
    },
    async (request) => ({ data: await service.create(request.body) }),
  );
  app.put(
    '/roles/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Change a role; resourcePaths, when given, replaces its grants',
        params: IdParams,
        body: RoleInput,
        response: { 200: Data(Role), ...errors },
      },
    },
    async (request) => ({ data: await service.update(request.params.id, request.body) }),
  );
  app.delete(
    '/roles/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a role nobody holds (409 naming how many users still do)',
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
