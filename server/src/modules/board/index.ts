export { boardPageRoutes } from './routes.ts';
export { type BoardDeps, type BoardService, createBoardService } from './service.ts';
