import { lazyScreen, type ScreenMap } from '../../lib/lazy-screen.tsx';

/**
 * The /analysis menu by route name (contract/src/routes.ts), each screen loaded on first visit:
 * the statistics report (report/), KPI reports (kpi/), tariffs and the bill (tariffs/), EnPI (enpi/).
 */
export const screens: ScreenMap = {
  report: lazyScreen(() => import('./report/components/ReportScreen.tsx')),
  kpi: lazyScreen(() => import('./kpi/components/KpiScreen.tsx'), 'KpiScreen'),
  tariff: lazyScreen(() => import('./tariffs/components/TariffScreen.tsx'), 'TariffScreen'),
  bill: lazyScreen(() => import('./tariffs/components/BillScreen.tsx'), 'BillScreen'),
  enpi: lazyScreen(() => import('./enpi/components/EnpiScreen.tsx'), 'EnpiScreen'),
};
