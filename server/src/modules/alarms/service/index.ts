import { type AlarmsDeps, serviceContext } from './context.ts';
import { historyService } from './history.ts';
import { maintenanceService } from './maintenance.ts';
import { monitorService } from './monitors.ts';
import { outOfServiceService } from './out-of-service.ts';
import { ruleService } from './rules.ts';
import { templateService } from './templates.ts';

export type { AlarmCatalog, AlarmsDeps } from './context.ts';

/**
 * Rules, templates, monitors and the alarm history with its operator actions. The engine that raises
 * alarms (runner.ts) writes history through the repository; everything a person does goes through here.
 */
export function createAlarmsService(deps: AlarmsDeps) {
  const ctx = serviceContext(deps);
  return {
    ...ruleService(ctx),
    ...templateService(ctx),
    ...monitorService(ctx),
    ...maintenanceService(ctx),
    ...historyService(ctx),
    ...outOfServiceService(ctx),
  };
}

export type AlarmsService = ReturnType<typeof createAlarmsService>;
