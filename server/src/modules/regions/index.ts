export { regionRoutes } from './routes.ts';
export { createRegionService, parseIdList, type RegionService } from './service.ts';
