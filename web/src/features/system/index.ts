import { lazyScreen, type ScreenMap } from '../../lib/lazy-screen.tsx';

/** Screens of this feature by route name (contract/src/routes.ts), loaded on first visit. */
export const screens: ScreenMap = {
  user: lazyScreen(() => import('./components/UsersScreen.tsx'), 'UsersScreen'),
  group: lazyScreen(() => import('./components/GroupsScreen.tsx'), 'GroupsScreen'),
  role: lazyScreen(() => import('./components/RolesScreen.tsx'), 'RolesScreen'),
  route: lazyScreen(() => import('./components/ResourcesScreen.tsx'), 'ResourcesScreen'),
  sys_config: lazyScreen(() => import('./components/SysConfigScreen.tsx'), 'SysConfigScreen'),
};
