export { backupDataFolder, MANIFEST } from './backup.ts';
export { instrumentIngest, instrumentStore } from './instrument.ts';
export { createMetrics, type Metrics } from './metrics.ts';
export { createReadiness, type Readiness } from './readiness.ts';
export { metricsRoutes, observeRequests, opsRoutes } from './routes.ts';
export { shutdownOnSignals } from './shutdown.ts';
