import type { AlarmHistoryQuery, AlarmSpanList, ThingEventList } from '@kilowatch/contract';
import { MAX_SPANS, MAX_THING_EVENTS } from '@kilowatch/contract';
import { page as pageOf } from '../../../db/sql.ts';
import * as repo from '../repository/index.ts';
import type { ServiceContext } from './context.ts';

/** The alarm history with its operator actions, spans and thing events. */
export function historyService(ctx: ServiceContext) {
  const { db, now, describe, getAlarm } = ctx;
  return {
    async listHistory(query: AlarmHistoryQuery) {
      const { page, pageSize } = pageOf(query);
      const { list, size } = await repo.listHistory(db, { ...query, page, pageSize }, now());
      return { list: await describe(list), size, hasNextPage: page * pageSize < size };
    },

    getAlarm,

    /** One device's event log (docs/alarms.md, "A device's event log"). */
    async thingEvents(thingId: number, start: number, end: number): Promise<ThingEventList> {
      const events = await repo.listThingEvents(db, thingId, start, end, MAX_THING_EVENTS + 1);
      return { list: events.slice(0, MAX_THING_EVENTS), truncated: events.length > MAX_THING_EVENTS };
    },

    /** The alarms charts draw over a range (docs/alarms.md, "Alarms on charts"). */
    async spans(thingIds: readonly number[], start: number, end: number): Promise<AlarmSpanList> {
      const records = await repo.listSpans(db, thingIds, start, end, MAX_SPANS + 1);
      const kept = records.slice(-MAX_SPANS);
      const described = await describe(kept);
      return {
        truncated: records.length > MAX_SPANS,
        list: kept.map((r, i) => ({
          id: r.id,
          thingId: r.thingId,
          thingName: r.thingName,
          ruleName: r.ruleName,
          ability: described[i]!.ability,
          severity: r.severity,
          message: r.message,
          value: r.value,
          alarmAt: r.alarmAt,
          returnedAt: r.returnedAt,
          active: r.status.active && !r.status.closed,
        })),
      };
    },

    /** Active alarms by thing and severity (the situation overview; docs/dashboard.md). */
    activeAlarms: () => repo.listActive(db, now()),
  };
}
