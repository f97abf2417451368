export { diagramRoutes } from './routes.ts';
export { createDiagramsService, type DiagramsDeps, type DiagramsService, emptyGraph } from './service.ts';
