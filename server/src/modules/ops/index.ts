export { backupDataFolder } from './backup.ts';
export { instrumentIngest, instrumentStore } from './instrument.ts';
export { createMetrics } from './metrics.ts';
export { createReadiness } from './readiness.ts';
export { metricsRoutes, observeRequests, opsRoutes } from './routes.ts';
export { closeIdleWhileClosing, shutdownOnSignals } from './shutdown.ts';
