import { lazyScreen, type ScreenMap } from '../../lib/lazy-screen.tsx';

/** Screens of this feature by route name (contract/src/routes.ts), loaded on first visit. */
export const screens: ScreenMap = {
  category: lazyScreen(() => import('./components/CategoryPage.tsx'), 'CategoryPage'),
  model: lazyScreen(() => import('./components/ModelPage.tsx'), 'ModelPage'),
  nodes: lazyScreen(() => import('./components/ThingPage.tsx'), 'ThingPage'),
  videoManagement: lazyScreen(() => import('./components/VideoPage.tsx'), 'VideoPage'),
};
