export { diagramRoutes } from './routes.ts';
export { createDiagramsService, type DiagramsService } from './service.ts';
