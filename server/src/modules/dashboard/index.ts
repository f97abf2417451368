/** The situation overview (/dashboard, issue 13; docs/dashboard.md). */
export { dashboardRoutes } from './routes.ts';
export { createDashboardService, type DashboardService } from './service.ts';
