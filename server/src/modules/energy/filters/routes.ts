import {
  filterGroupCreate,
  filterGroupDelete,
  filterGroupList,
  filterGroupUpdate,
  filterList,
} from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../../plugins/route.ts';
import type { FilterGroupService } from './service.ts';

/** Writes need the statistics screen's grant, where the console edits groups; reads are open. */
const write = { config: { resource: '/analysis/report' } };

/** /api/filter-groups and /api/filters (docs/statistics.md). */
export const filterGroupRoutes: FastifyPluginAsync<{ service: FilterGroupService }> = async (
  app,
  { service },
) => {
  route(app, filterGroupList, {}, async () => service.list());
  route(app, filterGroupCreate, write, async (request) => service.create(request.body));
  route(app, filterGroupUpdate, write, async (request) => service.update(request.params.id, request.body));
  route(app, filterGroupDelete, write, async (request) => {
    await service.remove(request.params.id);
    return { ok: true as const };
  });
  route(app, filterList, {}, async (request) => service.filters(request.query.groupId));
};
