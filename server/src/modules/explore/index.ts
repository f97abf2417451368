export { exploreRoutes } from './routes.ts';
export { createExploreService, type ExploreDeps, type ExploreService } from './service.ts';
