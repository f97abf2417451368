export { reportWorkbook } from './output.ts';
export { reportRoutes } from './routes.ts';
export { type Actor, createReportsService, type ReportsDeps, type ReportsService } from './service.ts';
