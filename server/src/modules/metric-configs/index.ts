export { metricConfigRoutes } from './routes.ts';
export { createMetricConfigService } from './service.ts';
