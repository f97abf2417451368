export { createStatisticsConfigs, type StatisticsConfigs } from './config.ts';
export { statisticsRoutes } from './routes.ts';
export { createStatisticsService, type StatisticsDeps, type StatisticsService } from './service.ts';
