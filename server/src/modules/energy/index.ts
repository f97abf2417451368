/**
 * Energy (docs/architecture.md "Energy"): tariffs and the bills they price, statistics and their
 * exports, KPI reports and their schedules, EnPI and the filter groups. The only entry for the
 * rest of the server: its rooms import each other, nothing else imports them.
 */

export { createTariffService } from './bills/service.ts';
export { type Fit, fitOls } from './enpi/regression.ts';
export { enpiRoutes } from './enpi/routes.ts';
export { createEnpiService } from './enpi/service.ts';
export { filterGroupRoutes } from './filters/routes.ts';
export { createFilterGroupService } from './filters/service.ts';
export { reportRoutes } from './reports/routes.ts';
export { createReportsService } from './reports/service.ts';
export { reportScheduleRoutes } from './schedules/routes.ts';
export { createReportSchedules } from './schedules/service.ts';
export { createStatisticsConfigs } from './statistics/config.ts';
export { statisticsRoutes } from './statistics/routes.ts';
export { createStatisticsService } from './statistics/service.ts';
export { tariffRoutes } from './tariffs/routes.ts';
