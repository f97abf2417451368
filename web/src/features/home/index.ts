import { lazyScreen, type ScreenMap } from '../../lib/lazy-screen.tsx';

/**
 * Screens of the home feature by route name (contract/src/routes.ts), loaded on first visit so
 * ECharts stays out of the first-load bundle.
 */
export const screens: ScreenMap = {
  home: lazyScreen(() => import('./components/HomeScreen.tsx')),
  chartdetail: lazyScreen(() => import('./components/ChartDetailScreen.tsx')),
};
