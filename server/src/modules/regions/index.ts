export { regionRoutes } from './routes.ts';
export { createRegionService, type RegionService } from './service.ts';
