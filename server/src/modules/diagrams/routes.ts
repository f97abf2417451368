import { diagramCreate, diagramDelete, diagramGet, diagramList, diagramPatch } from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../plugins/route.ts';
import type { DiagramsService } from './service.ts';

/** Writes need a grant of the diagram screen; every user reads (docs/permissions.md). */
const DIAGRAM = { config: { resource: '/electricDiagram/index' } };

/** /api/diagrams: the single-line diagrams (docs/electric-diagram.md). */
export const diagramRoutes: FastifyPluginAsync<{ service: DiagramsService }> = async (app, { service }) => {
  route(app, diagramList, {}, async () => service.list());
  route(app, diagramGet, {}, async (request) => service.get(request.params.id));
  route(app, diagramCreate, DIAGRAM, async (request) => service.create(request.body));
  route(app, diagramPatch, DIAGRAM, async (request) => service.patch(request.params.id, request.body));
  route(app, diagramDelete, DIAGRAM, async (request) => {
    await service.remove(request.params.id);
    return { ok: true as const };
  });
};
