import { Navigate } from 'react-router';
import type { ConsoleRoute } from '../config/routes.ts';
import { canAccessRoute, useSession } from '../lib/session.ts';

/**
 * A parent path (e.g. /device_management) opens its first child this user may see, so a user
 * granted only one page of a group is not sent to 401 by the group's address.
 */
export function ParentRedirect({ route }: { route: ConsoleRoute }) {
  const roles = useSession((s) => s.roles);
  const grants = useSession((s) => s.routes);
  const children = route.children ?? [];
  const target = children.find((c) => !c.hidden && canAccessRoute(roles, grants, c)) ?? children[0];
  return <Navigate to={target?.path ?? '/404'} replace />;
}
