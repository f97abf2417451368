import { isAdmin, isGranted, useSession } from '../../lib/session.ts';

/**
 * Named abilities of the chart screens, so views never test roles themselves. Who may change a
 * resource's metric configs: admins, and users whose roles explicitly grant the real-time route —
 * the same grant PATCH /api/query/config checks on the server (docs/permissions.md).
 */
const METRIC_CONFIG_GRANT = '/energy_monitor/realtime';

export interface ChartAbilities {
  /** Open the metric settings dialog and PATCH /api/query/config. */
  configureMetrics: boolean;
}

const chartAbilities = (roles: readonly string[], grants: readonly string[]): ChartAbilities => ({
  configureMetrics: isAdmin(roles) || isGranted(grants, METRIC_CONFIG_GRANT),
});

export function useChartAbilities(): ChartAbilities {
  const roles = useSession((s) => s.roles);
  const grants = useSession((s) => s.routes);
  return chartAbilities(roles, grants);
}
