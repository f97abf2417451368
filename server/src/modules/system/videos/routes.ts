import { videoCreate, videoDelete, videoList, videoUpdate } from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../../plugins/route.ts';
import type { VideoService } from './service.ts';

// Stream addresses may carry credentials, so reading them takes the same grant as editing.
const options = { config: { resource: '/device_management/video' } };

/** /api/videos (/device_management/video): storage of video labels; playback comes later. */
export const videoRoutes: FastifyPluginAsync<{ service: VideoService }> = async (app, { service }) => {
  route(app, videoList, options, async (request) => service.list(request.query));
  route(app, videoCreate, options, async (request) => service.create(request.body));
  route(app, videoUpdate, options, async (request) => service.update(request.params.id, request.body));
  route(app, videoDelete, options, async (request) => {
    await service.remove(request.params.id);
    return { ok: true as const };
  });
};
