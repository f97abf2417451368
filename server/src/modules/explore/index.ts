export { exploreRoutes } from './routes.ts';
export { createExploreService } from './service.ts';
