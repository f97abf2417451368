import { isAdmin, isGranted, useSession } from '../../lib/session.ts';

/** The grants the server checks (server/src/modules/alarms/routes.ts, docs/alarms.md). */
const RULE_PATH = '/alarm_center/alarm_rule';
export const HISTORY_PATH = '/alarm_center/alarm_history';

export interface AlarmAbilities {
  /** Create, change, enable, delete rules, templates and monitors. */
  canEditRules: boolean;
  /** Close an alarm outright, take alarms out of service and return them (acknowledge, comment and shelve are everyone's). */
  canClose: boolean;
}

const alarmAbilities = (roles: readonly string[], grants: readonly string[]): AlarmAbilities => ({
  canEditRules: isAdmin(roles) || isGranted(grants, RULE_PATH),
  canClose: isAdmin(roles) || isGranted(grants, HISTORY_PATH),
});

export function useAlarmAbilities(): AlarmAbilities {
  const roles = useSession((s) => s.roles);
  const grants = useSession((s) => s.routes);
  return alarmAbilities(roles, grants);
}
