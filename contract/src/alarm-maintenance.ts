import { type Static, Type } from 'typebox';
import { EpochMs, tags } from './alarm-fields.ts';
import { MONITOR_TARGETS } from './alarm-rules.ts';
import { IdParams, Ok, Page, PageQuery, RowId } from './common.ts';
import { endpoint } from './endpoint.ts';

// ---- maintenance windows -------------------------------------------------------------------------

/** Alarms raised on the target (a thing, or any thing through a region monitor) inside it are suppressed. */
export const MaintenanceInput = Type.Object({
  targetType: Type.Enum(MONITOR_TARGETS),
  targetId: RowId,
  start: EpochMs,
  end: EpochMs,
  reason: Type.String({ maxLength: 200 }),
});
export type MaintenanceInput = Static<typeof MaintenanceInput>;

export const MaintenanceWindow = Type.Object({
  id: Type.Integer(),
  targetType: Type.Enum(MONITOR_TARGETS),
  targetId: Type.Integer(),
  targetName: Type.String(),
  start: Type.String(),
  end: Type.String(),
  reason: Type.String(),
  createdAt: Type.String(),
  /** The username of who planned it ('' for a window planned before this was recorded). */
  createdBy: Type.String(),
});
export type MaintenanceWindow = Static<typeof MaintenanceWindow>;

export const MaintenanceQuery = Type.Object({
  ...PageQuery.properties,
  /** Only windows not yet over at this time (ms); all when absent. */
  openAt: Type.Optional(EpochMs),
});
export type MaintenanceQuery = Static<typeof MaintenanceQuery>;

export const alarmMaintenanceList = endpoint({
  method: 'GET',
  path: '/api/alarm/maintenance',
  querystring: MaintenanceQuery,
  response: Page(MaintenanceWindow),
  tags,
  summary: 'Maintenance windows, latest start first; `openAt` keeps those not over by then',
});

export const alarmMaintenanceCreate = endpoint({
  method: 'POST',
  path: '/api/alarm/maintenance',
  body: MaintenanceInput,
  response: MaintenanceWindow,
  tags,
  summary: 'Plan a maintenance window on a thing or region: alarms raised in it are kept, suppressed',
});

export const alarmMaintenanceDelete = endpoint({
  method: 'DELETE',
  path: '/api/alarm/maintenance/:id',
  params: IdParams,
  response: Ok,
  tags,
  summary: 'Remove a maintenance window',
});

// ---- out of service (ISA-18.2) -------------------------------------------------------------------

/**
 * Take alarms out of service: a rule on one thing (`ruleId` and `thingId`), or everything one
 * monitor watches (`monitorId`). The engine stops watching them, so they neither raise nor ring,
 * until they are returned to service; an open alarm among them is closed with the reason.
 */
export const OutOfServiceInput = Type.Object({
  ruleId: Type.Optional(RowId),
  thingId: Type.Optional(RowId),
  monitorId: Type.Optional(RowId),
  reason: Type.String({ minLength: 1, maxLength: 200 }),
});
export type OutOfServiceInput = Static<typeof OutOfServiceInput>;

export const OutOfServiceEntry = Type.Object({
  id: Type.Integer(),
  ruleId: Type.Union([Type.Integer(), Type.Null()]),
  thingId: Type.Union([Type.Integer(), Type.Null()]),
  monitorId: Type.Union([Type.Integer(), Type.Null()]),
  /** "rule · thing", or for a monitor "rule or template → thing or region", as named when taken out. */
  name: Type.String(),
  reason: Type.String(),
  username: Type.String(),
  createdAt: Type.String(),
});
export type OutOfServiceEntry = Static<typeof OutOfServiceEntry>;

export const OutOfServiceQuery = Type.Object({
  ...PageQuery.properties,
  ruleId: Type.Optional(RowId),
  thingId: Type.Optional(RowId),
});
export type OutOfServiceQuery = Static<typeof OutOfServiceQuery>;

export const alarmOutOfServiceList = endpoint({
  method: 'GET',
  path: '/api/alarm/out-of-service',
  querystring: OutOfServiceQuery,
  response: Page(OutOfServiceEntry),
  tags,
  summary: 'Alarms out of service, newest first; `ruleId` and `thingId` narrow to the entries covering them',
});

export const alarmOutOfServiceCreate = endpoint({
  method: 'POST',
  path: '/api/alarm/out-of-service',
  body: OutOfServiceInput,
  response: OutOfServiceEntry,
  tags,
  summary:
    'Take a rule on one thing (`ruleId` + `thingId`) or a monitor (`monitorId`) out of service, with a reason',
});

export const alarmOutOfServiceDelete = endpoint({
  method: 'DELETE',
  path: '/api/alarm/out-of-service/:id',
  params: IdParams,
  response: Ok,
  tags,
  summary: 'Return to service: the engine watches it again from now',
});
