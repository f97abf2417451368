export { thingsRoutes } from './routes.ts';
export { createThingsService, type ThingsService, type ThingsServiceDeps } from './service/index.ts';
