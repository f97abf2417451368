import type { Kysely } from 'kysely';
import type { DB } from '../../../db/index.ts';
import { type Mail, SmtpNotConfigured, sendMail } from './channels.ts';
import { createNotifier, type NotifierDeps } from './notifier.ts';
import { smtp } from './repository.ts';
import { alarmNotifyRoutes } from './routes.ts';
import { createNotifySettings } from './service.ts';

export type { Mail } from './channels.ts';

export { alarmNotifyRoutes, SmtpNotConfigured };

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
  return { notifier, settings };
}

/**
 * Mail through the alarm centre's SMTP settings, read at each send so a change applies at once
 * (scheduled reports send their files this way). Throws SmtpNotConfigured when none is set.
 */
export function createMailer(db: Kysely<DB>) {
  return {
    async send(mail: Mail, stop?: AbortSignal): Promise<void> {
      await sendMail(await smtp(db), mail, stop);
    },
  };
}
