import { lazy, Suspense } from 'react';
import { createHashRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { type ConsoleRoute, ROUTES } from '../config/routes.ts';
import { screens as alarmScreens } from '../features/alarms/index.ts';
import { screens as analysisScreens } from '../features/analysis/index.ts';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { screens as boardScreens } from '../features/board/index.ts';
import { standaloneScreens as dashboardScreens } from '../features/dashboard/index.ts';
import { screens as deviceScreens } from '../features/devices/index.ts';
import { screens as diagramScreens } from '../features/diagram/index.ts';
import { screens as exploreScreens } from '../features/explore/index.ts';
import { screens as homeScreens } from '../features/home/index.ts';
import { screens as monitoringScreens } from '../features/monitoring/index.ts';
import { RouteErrorBoundary } from '../features/pages/RouteErrorBoundary.tsx';
import { screens as regionScreens } from '../features/regions/index.ts';
import { screens as systemScreens } from '../features/system/index.ts';
import { screens as videoScreens } from '../features/video/index.ts';
import { featureMessagesReady } from '../lib/i18n.ts';
import type { ScreenMap } from '../lib/lazy-screen.tsx';
import { ParentRedirect } from './ParentRedirect.tsx';
import { runGuard } from './run-guard.ts';

/** Screens that exist; every other layout route shows its title and a plain "not built yet". */
const SCREENS: ScreenMap = {
  ...deviceScreens,
  ...regionScreens,
  ...systemScreens,
  ...monitoringScreens,
  ...homeScreens,
  ...alarmScreens,
  ...analysisScreens,
  ...boardScreens,
  ...diagramScreens,
  ...videoScreens,
  ...exploreScreens,
};

/**
 * Menu entries whose page stands alone, outside the layout (a wall screen): the menu opens them
 * in the same window, full page, and they bring their own way back.
 */
const STANDALONE: ScreenMap = { ...dashboardScreens };

const leafObjects = (routes: ConsoleRoute[]): RouteObject[] =>
  routes.flatMap((r): RouteObject[] =>
    r.children?.length
      ? [{ path: r.path, element: <ParentRedirect route={r} /> }, ...leafObjects(r.children)]
      : STANDALONE[r.name]
        ? []
        : [{ path: r.path, ...screenRoute(r) }],
  );

const standaloneObjects = (routes: ConsoleRoute[]): RouteObject[] =>
  routes.flatMap((r): RouteObject[] => {
    const screen = STANDALONE[r.name];
    return [...(screen ? [{ path: r.path, element: screen() }] : []), ...standaloneObjects(r.children ?? [])];
  });

const NotBuiltPage = lazy(async () => ({
  default: (await import('../features/pages/NotBuiltPage.tsx')).NotBuiltPage,
}));

const screenRoute = (r: ConsoleRoute): Pick<RouteObject, 'element'> => {
  const screen = SCREENS[r.name];
  return {
    element: screen?.() ?? (
      <Suspense fallback={null}>
        <NotBuiltPage titleKey={r.titleKey} />
      </Suspense>
    ),
  };
};

const errorPage = (status: 401 | 404) => async () => {
  const { ErrorPage } = await import('../features/pages/ErrorPage.tsx');
  return { Component: () => <ErrorPage status={status} /> };
};

const routeObjects: RouteObject[] = [
  {
    id: 'root',
    element: <Outlet />,
    errorElement: <RouteErrorBoundary />,
    loader: ({ request }) => runGuard(new URL(request.url), request.signal),
    // The guard must run on every navigation, not only when this route's params change.
    shouldRevalidate: () => true,
    HydrateFallback: () => null,
    children: [
      { path: '/login', element: <LoginPage /> },
      {
        path: '/auth-redirect',
        lazy: async () => ({
          Component: (await import('../features/auth/AuthRedirectPage.tsx')).AuthRedirectPage,
        }),
      },
      { path: '/404', lazy: errorPage(404) },
      { path: '/401', lazy: errorPage(401) },
      ...standaloneObjects(ROUTES),
      {
        // Loaded after login, with the features' messages its screens need: the login page's first
        // load stays small (e2e/tests/login-budget.spec.ts).
        lazy: async () => {
          const [layout] = await Promise.all([import('../layout/MainLayout.tsx'), featureMessagesReady()]);
          return { Component: layout.MainLayout };
        },
        children: [{ path: '/', element: <Navigate to="/home" replace /> }, ...leafObjects(ROUTES)],
      },
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
];

export const createRouter = () => createHashRouter(routeObjects);
