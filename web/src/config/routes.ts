import { LAYOUT_ROUTES, ROLE_ADMIN, type RouteDef } from '@kilowatch/contract';

/** A console route with the roles the guard checks (admin-only routes declare ['admin']). */
export interface ConsoleRoute extends RouteDef {
  roles?: string[];
  parent?: ConsoleRoute;
  children?: ConsoleRoute[];
}

const withRoles = (routes: RouteDef[], parent?: ConsoleRoute): ConsoleRoute[] =>
  routes.map((r) => {
    const route: ConsoleRoute = { ...r, parent, roles: r.adminOnly ? [ROLE_ADMIN] : undefined };
    route.children = r.children ? withRoles(r.children, route) : undefined;
    return route;
  });

export const ROUTES: ConsoleRoute[] = withRoles(LAYOUT_ROUTES);

const byPath = new Map<string, ConsoleRoute>();
const index = (routes: ConsoleRoute[]) => {
  for (const r of routes) {
    byPath.set(r.path, r);
    if (r.children) index(r.children);
  }
};
index(ROUTES);

export const findRoute = (path: string): ConsoleRoute | undefined => byPath.get(path);

/** Parent first, for the breadcrumb. */
export const routeTrail = (path: string): ConsoleRoute[] => {
  const trail: ConsoleRoute[] = [];
  for (let r = findRoute(path); r; r = r.parent) trail.unshift(r);
  return trail;
};

/**
 * Decides one route for the current user; `route` is passed so a check can also look at the path
 * (grants). Existing one-argument checks on the roles keep working.
 */
export type RouteCheck = (roles: string[] | undefined, route: ConsoleRoute) => boolean;

/** A route is allowed when the check passes for it, or (a parent) for any of its children. */
export const routeAllowed = (route: ConsoleRoute, check: RouteCheck): boolean =>
  check(route.roles, route) || (route.children ?? []).some((c) => routeAllowed(c, check));

/**
 * The menu a user sees: static routes plus those their roles grant (spec §2, §6). A parent shows
 * when any of its children is allowed, and then with the allowed children only.
 */
export function menuFor(check: RouteCheck, routes: ConsoleRoute[] = ROUTES): ConsoleRoute[] {
  return routes
    .filter((r) => !r.hidden)
    .flatMap((r): ConsoleRoute[] => {
      if (r.children) {
        const children = menuFor(check, r.children);
        return children.length > 0 ? [{ ...r, children }] : [];
      }
      return check(r.roles, r) ? [r] : [];
    });
}
