export { listUnits } from './repository.ts';
export { unitsRoutes } from './routes.ts';
