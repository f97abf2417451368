import {
  regionBind,
  regionBindingList,
  regionBindingsAll,
  regionCreate,
  regionDelete,
  regionOrder,
  regionTree,
  regionUnbind,
  regionUnbound,
  regionUpdate,
} from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors.ts';
import { route } from '../../plugins/route.ts';
import { parseIdList } from '../../shared/ids.ts';
import type { RegionService } from './service.ts';

/**
 * Reads are open to every logged-in user. Writes need admin or a role granting '/region': the
 * region screen is a static route every user sees, but editing the tree is not for everyone.
 */
const write = { config: { resource: '/region' } };

/** /api/regions: the region tree and the things bound to its nodes (spec §7 Regions). */
export const regionRoutes: FastifyPluginAsync<{ service: RegionService }> = async (app, { service }) => {
  route(app, regionTree, {}, async (request) => service.tree(request.query));

  route(app, regionCreate, write, async (request) => service.create(request.body));

  route(app, regionOrder, write, async (request) => service.order(request.body));

  route(app, regionBindingsAll, {}, async (request) => service.allBindings(request.query));

  route(app, regionUnbound, {}, async (request) => service.unbound(request.query));

  route(app, regionUpdate, write, async (request) => service.update(request.params.id, request.body));

  route(app, regionDelete, write, async (request) => {
    await service.remove(request.params.id);
    return { ok: true as const };
  });

  route(app, regionBindingList, {}, async (request) => service.bindings(request.params.id, request.query));

  route(app, regionBind, write, async (request) => service.bind(request.params.id, request.body.thingIds));

  route(app, regionUnbind, write, async (request) => {
    const ids = parseIdList(request.query.thingIds);
    if (!ids) throw new AppError('BAD_REQUEST', 400, {}, { message: 'region.badThingIds' });
    return service.unbind(request.params.id, ids);
  });
};
