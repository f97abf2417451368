import { lazyScreen, type ScreenMap } from '../../lib/lazy-screen.tsx';

/** Screens of this feature by route name (contract/src/routes.ts), loaded on first visit. */
export const screens: ScreenMap = {
  region: lazyScreen(() => import('./components/RegionScreen.tsx'), 'RegionScreen'),
};
