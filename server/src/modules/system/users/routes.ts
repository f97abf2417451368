import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Data,
  IdParams,
  KeywordQuery,
  Ok,
  Page,
  PasswordReset,
  User,
  UserCreate,
  UserUpdate,
} from '@kilowatch/contract';
import { requireUser } from '../../auth/index.ts';
import { errors } from '../shared.ts';
import type { UserAdminService } from './service.ts';

const tags = ['system'];
const config = { resource: '/sys_management/user' };
const ok = { data: { ok: true as const } };

/** /api/users (/sys_management/user). */
export const userRoutes: FastifyPluginAsyncTypebox<{ service: UserAdminService }> = async (
  app,
  { service },
) => {
  app.get(
    '/users',
    {
      config,
      schema: {
        tags,
        summary: 'Users, paged; name searches username and name',
        querystring: KeywordQuery,
        response: { 200: Data(Page(User)), ...errors },
      },
    },
    async (request) => ({ data: await service.list(request.query) }),
  );
  app.post(
    '/users',
    {
      config,
      schema: {
        tags,
        summary: 'Create a user (409 when the username is taken, ignoring case)',
        body: UserCreate,
        response: { 200: Data(User), ...errors },
      },
    },
    async (request) => ({ data: await service.create(requireUser(request), request.body) }),
  );
  app.put(
    '/users/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Change a user; roleIds/groupIds, when given, replace the memberships',
        description:
          "disabled=true or userLevel=null ends the user's sessions. Refused (422) for yourself, and for the last enabled admin.",
        params: IdParams,
        body: UserUpdate,
        response: { 200: Data(User), ...errors },
      },
    },
    async (request) => ({
      data: await service.update(requireUser(request), request.params.id, request.body),
    }),
  );
  app.delete(
    '/users/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a user (not yourself, not the last enabled admin)',
        params: IdParams,
        response: { 200: Data(Ok), ...errors },
      },
    },
    async (request) => {
      await service.remove(requireUser(request), request.params.id);
      return ok;
    },
  );
  app.post(
    '/users/:id/password',
    {
      config,
      schema: {
        tags,
        summary: "Set a user's password; their refresh tokens are revoked",
        params: IdParams,
        body: PasswordReset,
        response: { 200: Data(Ok), ...errors },
      },
    },
    async (request) => {
      await service.resetPassword(requireUser(request), request.params.id, request.body.password);
      return ok;
    },
  );
};
