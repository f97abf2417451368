import { lazyScreen } from '../../lib/lazy-screen.tsx';

/**
 * Pages of this feature shown outside the console's layout, by route name: the situation overview
 * is a wall screen with no menu, tabs or navbar (docs/dashboard.md).
 */
export const standaloneScreens = {
  dashboard: lazyScreen(() => import('./components/DashboardPage.tsx'), 'DashboardPage'),
};
