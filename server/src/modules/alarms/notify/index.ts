import type { Kysely } from 'kysely';
import type { DB } from '../../../db/index.ts';
import { createNotifier, type NotifierDeps } from './notifier.ts';
import { smtp } from './repository.ts';
import { alarmNotifyRoutes } from './routes.ts';
import { createNotifySettings } from './service.ts';

export { alarmNotifyRoutes };

/**
 * Alarm notifications as the app wires them: the notifier (its hooks go to the alarm runner's
 * `recordNotifications` and `onWritten` and the alarms service's `onAction`; `start()` once the app is ready, `stop()` on
 * close) and the settings behind the /api/alarm/notify routes.
 */
export function createAlarmNotify(deps: NotifierDeps & { db: Kysely<DB> }) {
  const notifier = createNotifier(deps);
  const settings = createNotifySettings({
    db: deps.db,
    now: deps.now,
    notifier,
    ...(deps.allowList ? { allowList: deps.allowList } : {}),
  });
  // The SMTP server of the notification settings, which the scheduled reports mail through too.
  return { notifier, settings, smtp: () => smtp(deps.db) };
}
