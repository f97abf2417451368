export { metricConfigRoutes } from './routes.ts';
export { createMetricConfigService, type MetricConfigDeps, type MetricConfigService } from './service.ts';
