export { regionRoutes } from './routes.ts';
export { createRegionService, type RegionService, type RegionServiceDeps } from './service.ts';
