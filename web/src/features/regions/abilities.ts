import { isAdmin, isGranted, useSession } from '../../lib/session.ts';

/** The route whose grant lets a non-admin edit regions. */
const REGION_PATH = '/region';

export interface RegionAbilities {
  /** Add, rename, delete, move regions; bind and unbind devices. */
  canEditRegions: boolean;
}

/** What a session may do with regions: admins, or a role granting {@link REGION_PATH}. */
export const regionAbilities = (roles: readonly string[], grants: readonly string[]): RegionAbilities => ({
  canEditRegions: isAdmin(roles) || isGranted(grants, REGION_PATH),
});

/** The current user's region abilities (Grafana-style named abilities instead of role checks in views). */
export function useAbilities(): RegionAbilities {
  const roles = useSession((s) => s.roles);
  const grants = useSession((s) => s.routes);
  return regionAbilities(roles, grants);
}
