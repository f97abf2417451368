import type { ReactNode } from 'react';
import { isAdmin, useSession } from './session.ts';

/** True when the user holds at least one of the roles (admins hold every role). */
export const hasAnyRole = (userRoles: readonly string[], required: readonly string[]) =>
  isAdmin(userRoles) || required.some((r) => userRoles.includes(r));

/**
 * Element-level permission (spec §5): renders its children only when the user holds one of
 * `roles`. A missing or empty list is a programming error and throws, as the spec requires.
 */
export function Permission({ roles, children }: { roles: readonly string[]; children: ReactNode }) {
  if (!Array.isArray(roles) || roles.length === 0) {
    throw new Error("need roles! Like <Permission roles={['admin','editor']}>");
  }
  const userRoles = useSession((s) => s.roles);
  return hasAnyRole(userRoles, roles) ? children : null;
}
