export { type Fit, fitOls, isFit } from './regression.ts';
export { ENPI_RESOURCE, enpiRoutes } from './routes.ts';
export { createEnpiService, type EnpiDeps, type EnpiService } from './service.ts';
