import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  BoardComponentsQuery,
  Cabinet,
  Data,
  DeviceStatus,
  ErrorBody,
  LiveQuery,
  type LiveValue,
  MetricConfig,
  MetricConfigPatch,
  MetricConfigQuery,
  MetricQuery,
  QueryResult,
  RealtimeQuery,
  SeqQuery,
} from '@kilowatch/contract';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import type { Live } from '../../live/index.ts';
import { requestToken } from '../../plugins/authenticate.ts';
import { parseIdList } from '../../shared/ids.ts';
import { type AuthService, requireUser } from '../auth/index.ts';
import { liveQuota, openLiveStream } from './live.ts';
import type { QueryService } from './service.ts';

const errors = { '4xx': ErrorBody, '5xx': ErrorBody };
const tags = ['query'];
/** Things one live channel may follow. */
const MAX_LIVE_THINGS = 500;

/**
 * /api/query (spec §7 "Query and monitoring"). Reads are open to every logged-in user; changing a
 * resource's metric configs needs admin or a role granting the real-time monitoring route, which
 * is where the console edits them.
 */
export const queryRoutes: FastifyPluginAsyncTypebox<{
  service: QueryService;
  /** Where written values are announced (the SSE stream subscribes). */
  live: Pick<Live, 'subscribe'>;
  auth: Pick<AuthService, 'authenticate'>;
  now: () => number;
}> = async (app, { service, live, auth, now }) => {
  app.get(
    '/query/config',
    {
      schema: {
        tags,
        summary: "A resource's metric configs (sorted); with categoryId, that category's list",
        querystring: MetricConfigQuery,
        response: { 200: Data(Type.Array(MetricConfig)), ...errors },
      },
    },
    async (request) => {
      const { resourceType, resourceId, categoryId } = request.query;
      return { data: await service.configs({ resourceType, resourceId, categoryId: categoryId ?? null }) };
    },
  );

  app.patch(
    '/query/config',
    {
      config: { resource: '/energy_monitor/realtime' },
      schema: {
        tags,
        summary: "Replace a resource's metric configs (the whole list, in display order)",
        description:
          'Missing names, units and aggregators are taken from the ability. 404 unknown resource; 422 a metric that is not an ability of the thing (or of the things bound to the region), or listed twice.',
        body: MetricConfigPatch,
        response: { 200: Data(Type.Array(MetricConfig)), ...errors },
      },
    },
    async (request) => ({ data: await service.saveConfigs(request.body) }),
  );

  app.post(
    '/query/data',
    {
      schema: {
        tags,
        summary: 'One metric of a thing or region over a time range: buckets or raw points',
        description:
          'See docs/query-api.md. 400 bad range (end ≤ start, > 10 years, > 10,000 buckets) or formula; 404 unknown resource; 422 metric not an ability of the thing (or of any bound thing).',
        querystring: SeqQuery,
        body: MetricQuery,
        response: { 200: Data(QueryResult), ...errors },
      },
    },
    async (request) => ({
      data: await service.data(request.body, request.query.seq ?? request.body.seq ?? null),
    }),
  );

  app.get(
    '/query/realtime',
    {
      schema: {
        tags,
        summary: 'Latest value of every ability of a thing, or of the things bound to a region',
        querystring: RealtimeQuery,
        response: { 200: Data(Type.Array(DeviceStatus)), ...errors },
      },
    },
    async (request) => ({ data: await service.realtime(request.query) }),
  );

  const streams = new Set<{ end: () => void }>();
  const quota = liveQuota();
  // Open streams would keep the server from closing: end them first.
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.end();
  });

  app.get(
    '/query/live',
    {
      config: { queryToken: true },
      schema: {
        tags,
        summary: 'Server-Sent Events: latest values of these things as they are written',
        description:
          'EventSource cannot send headers: pass the access token as `?token=`. Events: `values` (data: LiveValue[]), first a snapshot of the latest values, then each written batch; a comment heartbeat every 15 s. A consumer that falls behind gets the latest value of each metric once it catches up, and is dropped after 30 s without reading. The stream ends (event `end`, data `{code}`) when the token expires or the user is disabled, logs out or has the password reset; at most 4 streams per user (429 beyond). Use on top of polling, not instead of it.',
        querystring: LiveQuery,
        response: errors,
      },
    },
    async (request, reply) => {
      const ids = parseIdList(request.query.thingIds);
      if (!ids || ids.length > MAX_LIVE_THINGS) {
        throw new AppError('BAD_REQUEST', 400, { max: MAX_LIVE_THINGS }, { message: 'query.badThingIds' });
      }
      const user = requireUser(request);
      const token = requestToken(request);
      if (!token) throw new AppError('UNAUTHORIZED', 401);
      const wanted = new Set(ids);
      const snapshot: LiveValue[] = [];
      for (const id of wanted) {
        const items = await service
          .realtime({ resourceId: id, resourceType: 'thing' })
          .catch((error: unknown) => {
            if (error instanceof AppError && error.status === 404) return [];
            throw error;
          });
        for (const s of items) {
          if (s.value !== null && s.ts !== null)
            snapshot.push({ thingId: s.thingId, metric: s.operation, ts: s.ts, value: s.value });
        }
      }
      // Counted after the last await, so parallel opens cannot pass the cap together.
      const release = quota.take(user.id);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      const stream = openLiveStream({
        raw,
        token,
        authenticate: auth.authenticate,
        now,
        onClose: (reason) => {
          off();
          release();
          streams.delete(stream);
          if (reason !== 'client' && reason !== 'server') {
            request.log.info({ reason, userId: user.id }, 'live stream closed by the server');
          }
        },
        onCheckFailed: (error) => request.log.error({ err: error }, 'live stream access check failed'),
      });
      streams.add(stream);
      const off = live.subscribe((values) => {
        const mine = values.filter((v) => wanted.has(v.thingId));
        if (mine.length > 0) stream.send(mine);
      });
      stream.start(snapshot);
    },
  );
};

/** /api/board/components (spec §7 "Regions and boards"): device cabinets of a region. */
export const boardRoutes: FastifyPluginAsyncTypebox<{ service: QueryService }> = async (app, { service }) => {
  app.get(
    '/board/components/:regionId',
    {
      schema: {
        tags: ['board'],
        summary:
          'Cabinets of the things bound to a region: attributes, latest values, seconds since last seen',
        params: Type.Object({ regionId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }),
        querystring: BoardComponentsQuery,
        response: { 200: Data(Type.Array(Cabinet)), ...errors },
      },
    },
    async (request) => ({ data: await service.cabinets(request.params.regionId, request.query) }),
  );
};
