/** The situation overview (/dashboard, issue 13; docs/dashboard.md). */
export { DASHBOARD_RESOURCE, dashboardRoutes } from './routes.ts';
export { createDashboardService, type DashboardDeps, type DashboardService } from './service.ts';
