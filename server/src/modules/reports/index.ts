export { checkComponent, fitted, nextPlace } from './components.ts';
export { reportWorkbook } from './output.ts';
export { reportRoutes } from './routes.ts';
export { type Actor, createReportsService, type ReportsDeps, type ReportsService } from './service.ts';
