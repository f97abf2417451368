import { Spin } from 'antd';
import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { featureMessagesReady } from './i18n.ts';

/** A feature's screens, keyed by route name (contract/src/routes.ts `name`). */
export type ScreenMap = Record<string, () => ReactNode>;

/**
 * A screen loaded on its first visit, so each feature's components (and the antd parts and
 * ECharts only they use) stay out of the first-load bundle; it shows once the features' messages
 * are in too.
 * @example export const screens = { history: lazyScreen(() => import('./components/HistoryScreen.tsx')) };
 * @example lazyScreen(() => import('./components/CategoryPage.tsx'), 'CategoryPage')
 */
export function lazyScreen<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  exportName: keyof M = 'default',
): () => ReactNode {
  const Screen = lazy(async () => {
    const [module] = await Promise.all([load(), featureMessagesReady()]);
    return { default: module[exportName] as ComponentType };
  });
  return () => (
    // Spin, not Skeleton: this module is in the login page's first load, and Spin is there already.
    <Suspense fallback={<Spin size="large" style={{ display: 'block', margin: '96px auto' }} />}>
      <Screen />
    </Suspense>
  );
}
