import { lazyScreen, type ScreenMap } from '../../lib/lazy-screen.tsx';

/** Screens of this feature by route name (contract/src/routes.ts), loaded on first visit. */
export const screens: ScreenMap = {
  alarm_history: lazyScreen(() => import('./components/AlarmHistoryTabs.tsx'), 'AlarmHistoryTabs'),
  alarm_rule: lazyScreen(() => import('./components/AlarmRuleScreen.tsx'), 'AlarmRuleScreen'),
};
