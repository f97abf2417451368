import { videoCameras, videoCreate, videoDelete, videoList, videoUpdate } from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../../plugins/route.ts';
import type { VideoService } from './service.ts';

// Stream addresses may carry credentials, so reading them takes the same grant as editing.
const options = { config: { resource: '/device_management/video' } };

/**
 * /api/videos (/device_management/video): video labels. /api/video/cameras: what the monitoring
 * screen plays, open to every user like the /video screen itself (docs/video.md).
 */
export const videoRoutes: FastifyPluginAsync<{ service: VideoService }> = async (app, { service }) => {
  route(app, videoList, options, async (request) => service.list(request.query));
  route(app, videoCreate, options, async (request) => service.create(request.body));
  route(app, videoUpdate, options, async (request) => service.update(request.params.id, request.body));
  route(app, videoDelete, options, async (request) => {
    await service.remove(request.params.id);
    return { ok: true as const };
  });
  // Open: /video is a static route every user sees (spec §2). It answers only what plays, never an
  // RTSP source; a playback address is fetched by the viewer's browser anyway (docs/video.md).
  route(app, videoCameras, {}, async (request) => service.cameras(request.query));
};
