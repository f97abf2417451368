import { exploreViewCreate, exploreViewDelete, exploreViewList, exploreViewPatch } from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../plugins/route.ts';
import { requireUser } from '../auth/index.ts';
import type { ExploreService } from './service.ts';

/**
 * /api/explore/views: every logged-in user keeps views of their own, so the routes are open and
 * the service scopes each call to its caller (docs/permissions.md).
 */
export const exploreRoutes: FastifyPluginAsync<{ service: ExploreService }> = async (app, { service }) => {
  route(app, exploreViewList, {}, async (request) => service.list(requireUser(request).id));
  route(app, exploreViewCreate, {}, async (request) => service.create(requireUser(request).id, request.body));
  route(app, exploreViewPatch, {}, async (request) =>
    service.patch(requireUser(request).id, request.params.id, request.body),
  );
  route(app, exploreViewDelete, {}, async (request) => {
    await service.remove(requireUser(request).id, request.params.id);
    return { ok: true as const };
  });
};
