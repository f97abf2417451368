export { unitsRoutes } from './routes.ts';
