import { lazyScreen, type ScreenMap } from '../../lib/lazy-screen.tsx';

/** Screens of video monitoring by route name (contract/src/routes.ts), loaded on first visit with hls.js. */
export const screens: ScreenMap = {
  video: lazyScreen(() => import('./components/VideoScreen.tsx'), 'VideoScreen'),
};
