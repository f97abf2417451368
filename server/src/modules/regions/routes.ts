import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AllBindingsQuery,
  BindInput,
  Binding,
  BindingsQuery,
  Data,
  ErrorBody,
  IdParams,
  Ok,
  Region,
  RegionInput,
  RegionNodeSchema,
  RegionOrder,
  RegionTreeQuery,
  RegionUpdate,
  Thing,
  UnbindQuery,
} from '@kilowatch/contract';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import { parseIdList } from '../../shared/ids.ts';
import type { RegionService } from './service.ts';

const errors = { '4xx': ErrorBody, '5xx': ErrorBody };
const tags = ['regions'];
/**
 * Reads are open to every logged-in user. Writes need admin or a role granting '/region': the
 * region screen is a static route every user sees, but editing the tree is not for everyone.
 */
const write = { resource: '/region' };
const Tree = Data(Type.Array(RegionNodeSchema));
const Bindings = Data(Type.Array(Binding));

/** /api/regions: the region tree and the things bound to its nodes (spec §7 Regions). */
export const regionRoutes: FastifyPluginAsyncTypebox<{ service: RegionService }> = async (
  app,
  { service },
) => {
  app.get(
    '/regions',
    {
      schema: {
        tags,
        summary: 'Region tree; withThings adds bound things as leaves (optionally of one category)',
        querystring: RegionTreeQuery,
        response: { 200: Tree, ...errors },
      },
    },
    async (request) => ({ data: await service.tree(request.query) }),
  );

  app.post(
    '/regions',
    {
      config: write,
      schema: {
        tags,
        summary: 'Create a region (at the end of its parent, or as a root)',
        body: RegionInput,
        response: { 200: Data(Region), ...errors },
      },
    },
    async (request) => ({ data: await service.create(request.body) }),
  );

  app.patch(
    '/regions/order',
    {
      config: write,
      schema: {
        tags,
        summary: 'Move and reorder regions in one step; answers the new tree',
        description:
          'Each entry sets the parent and sort of one region. Refused (422) when a region would sit under itself or one of its descendants, or the tree would be deeper than REGION_MAX_DEPTH.',
        body: RegionOrder,
        response: { 200: Tree, ...errors },
      },
    },
    async (request) => ({ data: await service.order(request.body) }),
  );

  app.get(
    '/regions/bindings',
    {
      schema: {
        tags,
        summary: 'Every binding of a thing to a region, optionally of one category',
        querystring: AllBindingsQuery,
        response: { 200: Bindings, ...errors },
      },
    },
    async (request) => ({ data: await service.allBindings(request.query) }),
  );

  app.get(
    '/regions/unbound',
    {
      schema: {
        tags,
        summary: 'Things bound to no region (optionally of one category), by name',
        description: 'Monitoring trees list them in an "unassigned" group so every device can be reached.',
        querystring: AllBindingsQuery,
        response: { 200: Data(Type.Array(Thing)), ...errors },
      },
    },
    async (request) => ({ data: await service.unbound(request.query) }),
  );

  app.put(
    '/regions/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Rename a region or change its description',
        params: IdParams,
        body: RegionUpdate,
        response: { 200: Data(Region), ...errors },
      },
    },
    async (request) => ({ data: await service.update(request.params.id, request.body) }),
  );

  app.delete(
    '/regions/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Delete a region without sub-regions (409 otherwise); its bindings go with it',
        params: IdParams,
        response: { 200: Data(Ok), ...errors },
      },
    },
    async (request) => {
      await service.remove(request.params.id);
      return { data: { ok: true as const } };
    },
  );

  app.get(
    '/regions/:id/bindings',
    {
      schema: {
        tags,
        summary: 'Things bound to a region; successor=true includes its descendants',
        params: IdParams,
        querystring: BindingsQuery,
        response: { 200: Bindings, ...errors },
      },
    },
    async (request) => ({ data: await service.bindings(request.params.id, request.query) }),
  );

  app.post(
    '/regions/:id/bindings',
    {
      config: write,
      schema: {
        tags,
        summary: "Bind things to a region (already bound ones are kept); answers the region's bindings",
        description: 'A thing may be bound to several regions.',
        params: IdParams,
        body: BindInput,
        response: { 200: Bindings, ...errors },
      },
    },
    async (request) => ({ data: await service.bind(request.params.id, request.body.thingIds) }),
  );

  app.delete(
    '/regions/:id/bindings',
    {
      config: write,
      schema: {
        tags,
        summary: "Unbind things (?thingIds=1,2) from a region; answers the region's bindings",
        params: IdParams,
        querystring: UnbindQuery,
        response: { 200: Bindings, ...errors },
      },
    },
    async (request) => {
      const ids = parseIdList(request.query.thingIds);
      if (!ids) throw new AppError('BAD_REQUEST', 400, {}, { message: 'region.badThingIds' });
      return { data: await service.unbind(request.params.id, ids) };
    },
  );
};
