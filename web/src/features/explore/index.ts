import { lazyScreen, type ScreenMap } from '../../lib/lazy-screen.tsx';

/**
 * The Explore screen by route name (contract/src/routes.ts): loaded on first visit, so ECharts
 * and its brush are not part of the first-load bundle.
 */
export const screens: ScreenMap = {
  explore: lazyScreen(() => import('./components/ExploreScreen.tsx')),
};
