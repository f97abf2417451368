import {
  alarmHealth,
  alarmHistoryAction,
  alarmHistoryGet,
  alarmHistoryList,
  alarmMaintenanceCreate,
  alarmMaintenanceDelete,
  alarmMaintenanceList,
  alarmMonitorBatch,
  alarmMonitorDelete,
  alarmMonitorList,
  alarmOutOfServiceCreate,
  alarmOutOfServiceDelete,
  alarmOutOfServiceList,
  alarmRuleBacktest,
  alarmRuleCreate,
  alarmRuleDelete,
  alarmRuleList,
  alarmRuleState,
  alarmRuleUpdate,
  alarmSpans,
  alarmTemplateCreate,
  alarmTemplateDelete,
  alarmTemplateList,
  alarmTemplateUpdate,
  alarmThingEvents,
  MAX_SPAN_THINGS,
} from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors.ts';

import { route } from '../../plugins/route.ts';
import { parseIdList } from '../../shared/ids.ts';
import { authorize, requireUser } from '../auth/index.ts';
import type { AlarmsService } from './service/index.ts';

/** Rules, templates and monitors are the alarm_rule screen's to change (docs/alarms.md). */
const RULES = { resource: '/alarm_center/alarm_rule' };
/** Closing an alarm without acknowledging it is the alarm_history screen's grant. */
const HISTORY_RESOURCE = '/alarm_center/alarm_history';
const ok = { ok: true as const };

/**
 * /api/alarm (spec §7 Alarms). Every logged-in user reads, and acknowledges, comments on, shelves
 * and unshelves alarms (an operator on shift is usually an editor); changing rules and closing an
 * alarm outright need a grant.
 */
export const alarmRoutes: FastifyPluginAsync<{ service: AlarmsService }> = async (app, { service }) => {
  route(app, alarmRuleList, {}, (request) => service.listRules(request.query));
  route(app, alarmRuleCreate, { config: RULES }, (request) => service.createRule(request.body));
  route(app, alarmRuleBacktest, { config: { heavy: true } }, (request) => service.backtest(request.body));
  route(app, alarmRuleUpdate, { config: RULES }, (request) =>
    service.updateRule(request.params.id, request.body),
  );
  route(app, alarmRuleDelete, { config: RULES }, async (request) => {
    await service.deleteRule(request.params.id);
    return ok;
  });
  route(app, alarmRuleState, { config: RULES }, (request) =>
    service.setRuleState(request.params.id, request.body.action),
  );

  route(app, alarmTemplateList, {}, (request) => service.listTemplates(request.query));
  route(app, alarmTemplateCreate, { config: RULES }, (request) => service.createTemplate(request.body));
  route(app, alarmTemplateUpdate, { config: RULES }, (request) =>
    service.updateTemplate(request.params.id, request.body),
  );
  route(app, alarmTemplateDelete, { config: RULES }, async (request) => {
    await service.deleteTemplate(request.params.id);
    return ok;
  });

  route(app, alarmMonitorList, {}, (request) => service.listMonitors(request.query));
  route(app, alarmMonitorBatch, { config: RULES }, (request) => service.applyMonitors(request.body));
  route(app, alarmMonitorDelete, { config: RULES }, async (request) => {
    await service.deleteMonitor(request.params.id);
    return ok;
  });

  route(app, alarmMaintenanceList, {}, (request) => service.listMaintenance(request.query));
  route(app, alarmMaintenanceCreate, { config: RULES }, (request) =>
    service.createMaintenance(request.body, requireUser(request).username),
  );
  route(app, alarmMaintenanceDelete, { config: RULES }, async (request) => {
    await service.deleteMaintenance(request.params.id);
    return ok;
  });

  route(app, alarmHistoryList, {}, (request) => service.listHistory(request.query));
  route(app, alarmHealth, {}, (request) => service.health(request.query));
  route(app, alarmSpans, {}, (request) => {
    const ids = parseIdList(request.query.thingIds);
    if (!ids || ids.length > MAX_SPAN_THINGS) {
      throw new AppError('BAD_REQUEST', 400, { max: MAX_SPAN_THINGS }, { message: 'query.badThingIds' });
    }
    const { start, end } = request.query;
    if (end <= start) throw new AppError('BAD_REQUEST', 400, {}, { message: 'query.badRange' });
    return service.spans([...new Set(ids)], start, end);
  });
  route(app, alarmThingEvents, {}, (request) => {
    const { start, end } = request.query;
    if (end <= start) throw new AppError('BAD_REQUEST', 400, {}, { message: 'query.badRange' });
    return service.thingEvents(request.params.id, start, end);
  });

  // Out of service (ISA-18.2) takes an alarm away from the operator: the history screen's grant.
  route(app, alarmOutOfServiceList, {}, (request) => service.listOutOfService(request.query));
  route(app, alarmOutOfServiceCreate, { config: { resource: HISTORY_RESOURCE } }, (request) => {
    const user = requireUser(request);
    return service.takeOutOfService(request.body, { id: user.id, username: user.username });
  });
  route(app, alarmOutOfServiceDelete, { config: { resource: HISTORY_RESOURCE } }, async (request) => {
    await service.returnToService(request.params.id);
    return ok;
  });
  route(app, alarmHistoryGet, {}, (request) => service.getAlarm(request.params.id));
  route(app, alarmHistoryAction, {}, (request) => {
    const user = requireUser(request);
    if (request.body.action === 'close' && !authorize(user, { resource: HISTORY_RESOURCE })) {
      throw new AppError('FORBIDDEN', 403);
    }
    return service.act(request.params.id, request.body, { id: user.id, username: user.username });
  });
};
