import { createHashRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { AuthRedirectPage } from '../features/auth/AuthRedirectPage.tsx';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { screens as deviceScreens } from '../features/devices/index.ts';
import { screens as homeScreens } from '../features/home/index.ts';
import { screens as monitoringScreens } from '../features/monitoring/index.ts';
import { ErrorPage } from '../features/pages/ErrorPage.tsx';
import { NotBuiltPage } from '../features/pages/NotBuiltPage.tsx';
import { RouteErrorBoundary } from '../features/pages/RouteErrorBoundary.tsx';
import { screens as regionScreens } from '../features/regions/index.ts';
import { screens as systemScreens } from '../features/system/index.ts';
import { MainLayout } from '../layout/MainLayout.tsx';
import { ParentRedirect } from './ParentRedirect.tsx';
import { type ConsoleRoute, ROUTES } from './route-table.ts';
import { runGuard } from './run-guard.ts';
import type { ScreenMap } from './screens.ts';

/** Screens that exist; every other layout route shows its title and a plain "not built yet". */
const SCREENS: ScreenMap = {
  ...deviceScreens,
  ...regionScreens,
  ...systemScreens,
  ...monitoringScreens,
  ...homeScreens,
};

const leafObjects = (routes: ConsoleRoute[]): RouteObject[] =>
  routes.flatMap((r): RouteObject[] =>
    r.children?.length
      ? [{ path: r.path, element: <ParentRedirect route={r} /> }, ...leafObjects(r.children)]
      : [{ path: r.path, element: SCREENS[r.name]?.() ?? <NotBuiltPage titleKey={r.titleKey} /> }],
  );

export const routeObjects: RouteObject[] = [
  {
    id: 'root',
    element: <Outlet />,
    errorElement: <RouteErrorBoundary />,
    loader: ({ request }) => runGuard(new URL(request.url)),
    // The guard must run on every navigation, not only when this route's params change.
    shouldRevalidate: () => true,
    HydrateFallback: () => null,
    children: [
      { path: '/login', element: <LoginPage /> },
      { path: '/auth-redirect', element: <AuthRedirectPage /> },
      { path: '/404', element: <ErrorPage status={404} /> },
      { path: '/401', element: <ErrorPage status={401} /> },
      {
        element: <MainLayout />,
        children: [{ path: '/', element: <Navigate to="/home" replace /> }, ...leafObjects(ROUTES)],
      },
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
];

export const createRouter = () => createHashRouter(routeObjects);
