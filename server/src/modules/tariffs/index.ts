export { adjustmentPercent, monthlyPowerFactor, PF_TABLES } from './power-factor.ts';
export { type PlantTariffStore, TARIFF_RESOURCE, tariffRoutes } from './routes.ts';
export { createTariffService, type TariffDeps, type TariffService } from './service.ts';
