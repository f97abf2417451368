import {
  alarmNotifyOutboxList,
  alarmNotifyRouteCreate,
  alarmNotifyRouteDelete,
  alarmNotifyRouteList,
  alarmNotifyRouteTest,
  alarmNotifyRouteUpdate,
  alarmNotifySmtpGet,
  alarmNotifySmtpTest,
  alarmNotifySmtpUpdate,
  ROLE_ADMIN,
} from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { pickLanguage } from '../../../i18n/index.ts';
import { route } from '../../../plugins/route.ts';
import type { NotifySettings } from './service.ts';

/** Notification settings hold addresses and secrets: the alarm_rule screen's grant, reads included. */
const RULES = { resource: '/alarm_center/alarm_rule' };
/**
 * Setting or testing the SMTP server makes the server connect where it is told: admins only, or
 * it is a port scanner for anyone holding the rules screen.
 */
const ADMIN = { roles: [ROLE_ADMIN] };
const ok = { ok: true as const };

/** /api/alarm/notify (docs/alarms.md, Notifications). */
export const alarmNotifyRoutes: FastifyPluginAsync<{ settings: NotifySettings }> = async (
  app,
  { settings },
) => {
  route(app, alarmNotifySmtpGet, { config: RULES }, () => settings.getSmtp());
  route(app, alarmNotifySmtpUpdate, { config: ADMIN }, (request) => settings.setSmtp(request.body));
  route(app, alarmNotifyRouteList, { config: RULES }, () => settings.listRoutes());
  route(app, alarmNotifyRouteCreate, { config: RULES }, (request) => settings.createRoute(request.body));
  route(app, alarmNotifyRouteUpdate, { config: RULES }, (request) =>
    settings.updateRoute(request.params.id, request.body),
  );
  route(app, alarmNotifyRouteDelete, { config: RULES }, async (request) => {
    await settings.deleteRoute(request.params.id);
    return ok;
  });
  route(app, alarmNotifyRouteTest, { config: RULES }, (request) =>
    settings.testRoute(request.params.id, pickLanguage(request.headers['accept-language'])),
  );
  route(app, alarmNotifySmtpTest, { config: ADMIN }, (request) =>
    settings.testSmtp(request.body.to, pickLanguage(request.headers['accept-language'])),
  );
  route(app, alarmNotifyOutboxList, { config: RULES }, (request) => settings.listOutbox(request.query));
};
