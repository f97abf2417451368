export { filterGroupRoutes } from './routes.ts';
export { createFilterGroupService, type FilterGroupDeps, type FilterGroupService } from './service.ts';
