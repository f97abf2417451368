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

/** The menu a user sees: static routes plus those their roles grant (spec §2, §6). */
export function menuFor(
  hasRole: (roles?: string[]) => boolean,
  routes: ConsoleRoute[] = ROUTES,
): ConsoleRoute[] {
  return routes
    .filter((r) => !r.hidden && hasRole(r.roles))
    .map((r) => (r.children ? { ...r, children: menuFor(hasRole, r.children) } : r))
    .filter((r) => !r.children || r.children.length > 0);
}
