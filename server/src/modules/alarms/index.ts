/**
 * The alarm centre (docs/alarms.md): rules, templates and monitors, the live runner that raises
 * alarms from the live hub through the pure engine, history and operator actions, and the
 * notifications of raises, acknowledgements and returns (notify/).
 */

export { alarmNotifyRoutes, createAlarmNotify } from './notify/index.ts';
export { alarmRoutes } from './routes.ts';
export { createAlarmRunner } from './runner.ts';
export { type AlarmsService, createAlarmsService } from './service/index.ts';
