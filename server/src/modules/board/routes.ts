import {
  boardComponentCreate,
  boardComponentDelete,
  boardComponentLayouts,
  boardComponentPatch,
  boardPageComponents,
  boardPageCreate,
  boardPageDelete,
  boardPageList,
  boardPagePatch,
  boardPageWeight,
} from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../plugins/route.ts';
import type { BoardService } from './service.ts';

/** Writes need a grant of the board's screen; reading (a TV's account) is every user's (docs/permissions.md). */
const BOARD = { config: { resource: '/workshopBoard' } };

/** /api/board/pages (spec §7 "Regions and boards"); the cabinets, /api/board/components, are the query module's. */
export const boardPageRoutes: FastifyPluginAsync<{ service: BoardService }> = async (app, { service }) => {
  route(app, boardPageList, {}, async () => service.pages());

  route(app, boardPageCreate, BOARD, async (request) => service.createPage(request.body));

  route(app, boardPagePatch, BOARD, async (request) => service.patchPage(request.params.id, request.body));

  route(app, boardPageWeight, BOARD, async (request) =>
    service.setWeight(request.params.id, request.body.weight),
  );

  route(app, boardPageDelete, BOARD, async (request) => {
    await service.removePage(request.params.id);
    return { ok: true as const };
  });

  route(app, boardPageComponents, {}, async (request) => service.components(request.params.id));

  route(app, boardComponentCreate, BOARD, async (request) =>
    service.addComponent(request.params.id, request.body),
  );

  route(app, boardComponentLayouts, BOARD, async (request) =>
    service.saveLayouts(request.params.id, request.body),
  );

  route(app, boardComponentPatch, BOARD, async (request) =>
    service.patchComponent(request.params.pageId, request.params.componentId, request.body),
  );

  route(app, boardComponentDelete, BOARD, async (request) => {
    await service.removeComponent(request.params.pageId, request.params.componentId);
    return { ok: true as const };
  });
};
