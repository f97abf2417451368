import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Data, IdParams, KeywordQuery, Ok, Page, Video, VideoInput } from '@kilowatch/contract';
import { errors } from '../shared.ts';
import type { VideoService } from './service.ts';

const tags = ['video'];
// Stream addresses may carry credentials, so reading them takes the same grant as editing.
const config = { resource: '/device_management/video' };

/** /api/videos (/device_management/video): storage of video labels; playback comes later. */
export const videoRoutes: FastifyPluginAsyncTypebox<{ service: VideoService }> = async (app, { service }) => {
  app.get(
    '/videos',
    {
      config,
      schema: {
        tags,
        summary: 'Video labels, paged; name searches the label',
        querystring: KeywordQuery,
        response: { 200: Data(Page(Video)), ...errors },
      },
    },
    async (request) => ({ data: await service.list(request.query) }),
  );
  app.post(
    '/videos',
    {
      config,
      schema: {
        tags,
        summary: 'Create a video label (regionId/thingId must exist: 422)',
        body: VideoInput,
        response: { 200: Data(Video), ...errors },
      },
    },
    async (request) => ({ data: await service.create(request.body) }),
  );
  app.put(
    '/videos/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Change a video label',
        params: IdParams,
        body: VideoInput,
        response: { 200: Data(Video), ...errors },
      },
    },
    async (request) => ({ data: await service.update(request.params.id, request.body) }),
  );
  app.delete(
    '/videos/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a video label',
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
