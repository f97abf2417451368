import type {
  AlarmActionBody,
  AlarmDetail,
  AlarmHealthQuery,
  OutOfServiceEntry,
  OutOfServiceInput,
  OutOfServiceQuery,
} from '@kilowatch/contract';
import { HEALTH_MAX_RANGE_MS } from '@kilowatch/contract';
import { page as pageOf } from '../../../db/sql.ts';
import { AppError } from '../../../errors.ts';
import { applyAction, takenOutOfService } from '../engine/state.ts';
import { alarmHealth } from '../health.ts';
import * as oos from '../out-of-service.ts';
import * as repo from '../repository/index.ts';
import { type Actor, iso, notFound, type ServiceContext } from './context.ts';

/** Taking a rule on a thing out of service, and back. */
export function outOfServiceService(ctx: ServiceContext) {
  const { db, catalog, now, deps, changed, getAlarm } = ctx;
  return {
    async listOutOfService(query: OutOfServiceQuery) {
      const { page, pageSize, limit, offset } = pageOf(query);
      return { ...(await oos.listOutOfService(db, { ...query, limit, offset })), page, pageSize };
    },

    /**
     * Takes a rule on one thing, or a monitor, out of service: the engine stops watching it (the
     * runner reloads), and an alarm of it still open is closed with the reason in its trail.
     */
    async takeOutOfService(input: OutOfServiceInput, actor: Actor): Promise<OutOfServiceEntry> {
      const reason = input.reason.trim();
      if (!reason) throw new AppError('VALIDATION', 400, {}, { message: 'alarm.outOfServiceReason' });
      const pair = input.ruleId !== undefined || input.thingId !== undefined;
      const whole = input.ruleId !== undefined && input.thingId !== undefined;
      if (input.monitorId !== undefined ? pair : !whole) {
        throw new AppError('VALIDATION', 400, {}, { message: 'alarm.outOfServiceTarget' });
      }
      const target = {
        ruleId: input.ruleId ?? null,
        thingId: input.thingId ?? null,
        monitorId: input.monitorId ?? null,
      };
      let name: string;
      if (target.monitorId !== null) {
        const monitor = (await repo.listMonitors(db, { page: 1, pageSize: 1, id: target.monitorId })).list[0];
        if (!monitor)
          throw new AppError(
            'UNPROCESSABLE',
            422,
            { id: target.monitorId },
            { message: 'alarm.monitorUnknown' },
          );
        name = `${monitor.appliedName} → ${monitor.targetName}`;
      } else {
        const rule = await repo.findRule(db, target.ruleId!);
        if (!rule)
          throw new AppError(
            'UNPROCESSABLE',
            422,
            { id: target.ruleId! },
            { message: 'alarm.appliedUnknown' },
          );
        // The thing's own service answers 404 for one that does not exist.
        const thing = await catalog.select({ resourceType: 'thing', id: target.thingId! });
        name = `${rule.name} · ${thing.things[0]?.name ?? thing.name}`;
      }
      const at = now();
      const id = await db.transaction().execute(async (tx) => {
        if (await oos.sameTarget(tx, target))
          throw new AppError('CONFLICT', 409, { name }, { message: 'alarm.outOfServiceExists' });
        const entryId = await oos.insertOutOfService(
          tx,
          { ...target, name, reason, userId: actor.id, username: actor.username },
          iso(at),
        );
        for (const { id: alarmId } of await oos.openCovered(tx, target)) {
          const record = (await repo.findHistory(tx, alarmId))!;
          await repo.updateHistory(tx, alarmId, { status: takenOutOfService(record.status) }, iso(at));
          await repo.insertAction(
            tx,
            {
              historyId: alarmId,
              action: 'close',
              userId: actor.id,
              username: actor.username,
              comment: reason,
              until: null,
            },
            iso(at),
          );
        }
        return entryId;
      });
      changed();
      return (await oos.findOutOfService(db, id))!;
    },

    /** Returns to service: the engine watches it again from now, as if newly monitored. */
    async returnToService(id: number): Promise<void> {
      if (!(await oos.deleteOutOfService(db, id))) throw notFound();
      changed();
    },

    /** The alarm system's health over a range (EEMUA 191; health.ts). */
    async health(query: AlarmHealthQuery) {
      if (query.endTime <= query.startTime)
        throw new AppError('VALIDATION', 400, {}, { message: 'alarm.healthRange' });
      if (query.endTime - query.startTime > HEALTH_MAX_RANGE_MS)
        throw new AppError('VALIDATION', 400, { days: 31 }, { message: 'alarm.healthRangeTooLong' });
      return alarmHealth(db, query.startTime, query.endTime, now());
    },

    /** An operator's action; a refusal is a 409 saying why, and nothing is written. */
    async act(id: number, body: AlarmActionBody, actor: Actor): Promise<AlarmDetail> {
      await db.transaction().execute(async (tx) => {
        const record = await repo.findHistory(tx, id);
        if (!record) throw notFound();
        const at = now();
        const result = applyAction(record.status, { type: body.action, until: body.until }, at);
        if (!result.ok) {
          const status = result.reason === 'shelveUntilInvalid' ? 400 : 409;
          throw new AppError(
            status === 400 ? 'VALIDATION' : 'CONFLICT',
            status,
            {},
            { message: `alarm.refused.${result.reason}` },
          );
        }
        if (result.status !== record.status)
          await repo.updateHistory(tx, id, { status: result.status }, iso(at));
        await repo.insertAction(
          tx,
          {
            historyId: id,
            action: body.action,
            userId: actor.id,
            username: actor.username,
            comment: body.comment ?? '',
            until: body.action === 'shelve' ? (body.until ?? null) : null,
          },
          iso(at),
        );
      });
      deps.onAction?.({
        alarmId: id,
        action: body.action,
        username: actor.username,
        comment: body.comment ?? '',
      });
      return getAlarm(id);
    },
  };
}
