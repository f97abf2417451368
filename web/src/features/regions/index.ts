import { lazyScreen } from '../../app/lazy-screen.tsx';
import type { ScreenMap } from '../../app/screens.ts';

export { useAbilities as useRegionAbilities } from './abilities.ts';

/** Screens of this feature by route name (contract/src/routes.ts), loaded on first visit. */
export const screens: ScreenMap = {
  region: lazyScreen(() => import('./components/RegionScreen.tsx'), 'RegionScreen'),
};
