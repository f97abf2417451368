import { lazyScreen, type ScreenMap } from '../../lib/lazy-screen.tsx';

/**
 * Screens of the energy-monitoring feature by route name (contract/src/routes.ts). Loaded on
 * first visit so ECharts is not part of the first-load bundle.
 */
export const screens: ScreenMap = {
  realtime: lazyScreen(() => import('./components/RealtimeScreen.tsx')),
  history: lazyScreen(() => import('./components/HistoryScreen.tsx')),
  fire: lazyScreen(() => import('./components/FireScreen.tsx')),
};
