/**
 * The alarm centre (docs/alarms.md): rules, templates and monitors, the live runner that raises
 * alarms from the live hub through the pure engine, history and operator actions.
 */
export { alarmRoutes } from './routes.ts';
export { type AlarmRunner, createAlarmRunner } from './runner.ts';
export { type AlarmCatalog, type AlarmsService, createAlarmsService } from './service.ts';
