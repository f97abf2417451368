export { reportWorkbook } from './output.ts';
export { reportRoutes } from './routes.ts';
export { reportScheduleRoutes } from './schedule-routes.ts';
export { createReportSchedules, type ReportSchedules, type ReportSchedulesDeps } from './schedules.ts';
export { type Actor, createReportsService, type ReportsDeps, type ReportsService } from './service.ts';
