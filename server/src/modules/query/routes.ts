import {
  boardComponents,
  type LiveValue,
  queryData,
  queryLive,
  queryLiveTicket,
  queryRealtime,
} from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors.ts';
import type { Live } from '../../live/index.ts';

import { route } from '../../plugins/route.ts';
import { parseIdList } from '../../shared/ids.ts';
import { type AuthService, requireUser, type StreamTickets } from '../auth/index.ts';
import { liveQuota, openLiveStream } from './live.ts';
import type { QueryService } from './service.ts';

/** Things one live channel may follow. */
const MAX_LIVE_THINGS = 500;

/**
 * /api/query (spec §7 "Query and monitoring"), open to every logged-in user; the metric configs
 * under /api/query/config are modules/metric-configs.
 */
export const queryRoutes: FastifyPluginAsync<{
  service: QueryService;
  /** Where written values are announced (the SSE stream subscribes). */
  live: Pick<Live, 'subscribe'>;
  auth: Pick<AuthService, 'authenticate'>;
  /** The stream's tickets (modules/auth/hook.ts redeems them). */
  tickets: Pick<StreamTickets, 'issue'>;
  now: () => number;
  /** Told how many live streams are open after each opens or closes (/metrics). */
  onStreams?: (open: number) => void;
}> = async (app, { service, live, auth, tickets, now, onStreams }) => {
  route(app, queryData, {}, async (request) =>
    service.data(request.body, request.query.seq ?? request.body.seq ?? null),
  );

  route(app, queryRealtime, {}, async (request) => service.realtime(request.query));

  const streams = new Set<{ end: () => void }>();
  const quota = liveQuota();
  // Open streams would keep the server from closing: end them first.
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.end();
  });

  // Asked for with the header, so the access token stays out of the stream's URL.
  route(app, queryLiveTicket, {}, async (request) => {
    requireUser(request);
    if (!request.accessToken) throw new AppError('UNAUTHORIZED', 401);
    return tickets.issue(request.accessToken);
  });

  route(app, queryLive, { config: { streamTicket: true } }, async (request, reply) => {
    const ids = parseIdList(request.query.thingIds);
    if (!ids || ids.length > MAX_LIVE_THINGS) {
      throw new AppError('BAD_REQUEST', 400, { max: MAX_LIVE_THINGS }, { message: 'query.badThingIds' });
    }
    const user = requireUser(request);
    const token = request.accessToken;
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
        onStreams?.(streams.size);
        if (reason !== 'client' && reason !== 'server') {
          request.log.info({ reason, userId: user.id }, 'live stream closed by the server');
        }
      },
      onCheckFailed: (error) => request.log.error({ err: error }, 'live stream access check failed'),
    });
    streams.add(stream);
    onStreams?.(streams.size);
    const off = live.subscribe((batch) => {
      if (batch.thingId !== null && !wanted.has(batch.thingId)) return;
      const mine = batch.values().filter((v) => wanted.has(v.thingId));
      if (mine.length > 0) stream.send(mine);
    });
    stream.start(snapshot);
    return reply;
  });
};

/** /api/board/components (spec §7 "Regions and boards"): device cabinets of a region. */
export const boardRoutes: FastifyPluginAsync<{ service: QueryService }> = async (app, { service }) => {
  route(app, boardComponents, {}, async (request) =>
    service.cabinets(request.params.regionId, request.query),
  );
};
