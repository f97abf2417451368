export { regionRoutes } from './routes.ts';
export { createRegionService, parseIdList, type RegionService, type RegionServiceDeps } from './service.ts';
