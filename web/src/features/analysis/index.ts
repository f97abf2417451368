import { lazyScreen, type ScreenMap } from '../../lib/lazy-screen.tsx';

/** Screens of the analysis feature by route name (contract/src/routes.ts), loaded on first visit. */
export const screens: ScreenMap = {
  report: lazyScreen(() => import('./components/ReportScreen.tsx')),
};
