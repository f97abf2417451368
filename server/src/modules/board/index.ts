export { boardPageRoutes } from './routes.ts';
export { createBoardService } from './service.ts';
