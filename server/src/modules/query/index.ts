export { compileFormula, FormulaError } from './formula.ts';
export { boardRoutes, queryRoutes } from './routes.ts';
export { createQueryService, type QueryService } from './service.ts';
