/**
 * The alarm centre (docs/alarms.md): rules, templates and monitors, the live runner that raises
 * alarms from the live hub through the pure engine, history and operator actions, and the
 * notifications of raises, acknowledgements and returns (notify/).
 */

export {
  alarmNotifyRoutes,
  createAlarmNotify,
  createMailer,
  type Mail,
  type Mailer,
  type Notifier,
  type NotifySettings,
  SmtpNotConfigured,
} from './notify/index.ts';
export { alarmRoutes } from './routes.ts';
export { type AlarmRunner, createAlarmRunner } from './runner.ts';
export { type AlarmCatalog, type AlarmsService, createAlarmsService } from './service.ts';
