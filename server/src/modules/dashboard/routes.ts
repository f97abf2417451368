import multipart from '@fastify/multipart';
import {
  dashboardMap,
  dashboardMapImage,
  dashboardMapImageDelete,
  dashboardMapUpload,
  dashboardOverview,
  MAP_IMAGE_MAX_BYTES,
  placementCreate,
  placementDelete,
  placementMove,
} from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors.ts';
import { route } from '../../plugins/route.ts';
import { requireUser } from '../auth/index.ts';
import type { DashboardService } from './service.ts';

/** Editing the map (image, markers) needs the grant of /dashboard; seeing it is open (docs/permissions.md). */
const DASHBOARD_RESOURCE = '/dashboard';
const EDIT = { config: { resource: DASHBOARD_RESOURCE } };

/** /api/dashboard: the situation overview (docs/dashboard.md). */
export const dashboardRoutes: FastifyPluginAsync<{ service: DashboardService }> = async (
  app,
  { service },
) => {
  await app.register(multipart, { limits: { fileSize: MAP_IMAGE_MAX_BYTES, files: 1, fields: 5 } });

  route(app, dashboardOverview, {}, async (request) => service.overview(request.query));
  route(app, dashboardMap, {}, async () => service.map());

  route(app, dashboardMapImage, {}, async (request, reply) => {
    const image = await service.imageBytes();
    if (!image) throw new AppError('NOT_FOUND', 404, {}, { message: 'dashboard.noImage' });
    const etag = `"${image.version}"`;
    // The wall screen asks again after every upload (a new version); otherwise the bytes are unchanged.
    reply.header('etag', etag).header('cache-control', 'private, no-cache');
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    return reply.type(image.type).send(Buffer.from(image.bytes));
  });

  route(app, dashboardMapUpload, EDIT, async (request) => {
    if (!request.isMultipart()) throw new AppError('BAD_REQUEST', 400, {}, { message: 'dashboard.noFile' });
    const file = await request.file();
    if (file?.fieldname !== 'file') {
      file?.file.resume();
      throw new AppError('BAD_REQUEST', 400, {}, { message: 'dashboard.noFile' });
    }
    // The size limit cuts the stream: the plugin throws its own 413, answered here in our words.
    // Any other failure to read the part is a body that ended before its closing boundary.
    const bytes = await file.toBuffer().catch((error: unknown) => {
      if (file.file.truncated || (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') return null;
      throw new AppError('BAD_REQUEST', 400, {}, { message: 'dashboard.uploadCut' });
    });
    if (bytes === null || file.file.truncated)
      throw new AppError(
        'BAD_REQUEST',
        413,
        { mb: MAP_IMAGE_MAX_BYTES / 1024 / 1024 },
        { message: 'dashboard.imageTooLarge' },
      );
    return service.saveImage(bytes, requireUser(request).username);
  });

  route(app, dashboardMapImageDelete, EDIT, async () => {
    await service.deleteImage();
    return { ok: true as const };
  });

  route(app, placementCreate, EDIT, async (request) => service.place(request.body));
  route(app, placementMove, EDIT, async (request) => service.move(request.params.id, request.body));
  route(app, placementDelete, EDIT, async (request) => {
    await service.remove(request.params.id);
    return { ok: true as const };
  });
};
