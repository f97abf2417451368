export { thingsRoutes } from './routes.ts';
export { createThingsService, type ThingsService } from './service/index.ts';
