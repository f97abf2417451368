import {
  ALARM_STATE,
  type AlarmActionBody,
  type AlarmHealthQuery,
  type AlarmHistoryQuery,
  type AlarmMonitorQuery,
  type AlarmRuleInput,
  type AlarmRuleQuery,
  type AlarmTemplateInput,
  type AlarmTemplateQuery,
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
  alarmNotifyOutboxList,
  alarmNotifyRouteCreate,
  alarmNotifyRouteDelete,
  alarmNotifyRouteList,
  alarmNotifyRouteTest,
  alarmNotifyRouteUpdate,
  alarmNotifySmtpGet,
  alarmNotifySmtpTest,
  alarmNotifySmtpUpdate,
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
  type BacktestBody,
  MAX_SPAN_THINGS,
  type MaintenanceInput,
  type MaintenanceQuery,
  type MonitorBatch,
  type NotifyOutboxQuery,
  type NotifyRouteInput,
  type OutOfServiceInput,
  type OutOfServiceQuery,
  type RegionNode,
  regionTree,
  type SmtpSettingsInput,
} from '@kilowatch/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { call } from '../lib/call.ts';
import { keys } from './keys.ts';

/**
 * The alarm centre (/api/alarm, spec §7 Alarms): rules, templates, monitors, history and the
 * operator's actions. Every key sits under `keys.alarms.all` and every write invalidates it: an
 * acknowledged alarm leaves the bell and changes the list at once.
 */

/** Spec §9: the bell asks every 10 s for the first 5 ringing alarms. */
export const ALARM_POLL_MS = 10_000;
const BELL_PAGE_SIZE = 5;

// ---- history ------------------------------------------------------------------------------------

export const getAlarmHistory = (query: AlarmHistoryQuery, silent = true) =>
  call(alarmHistoryList, { query, silent });

/** What the bell rings for: state 1 (active, unacknowledged, not shelved or suppressed). */
const getBellAlarms = () =>
  call(alarmHistoryList, {
    query: { page: 1, pageSize: BELL_PAGE_SIZE, state: ALARM_STATE.unacknowledged },
    silent: true,
    quiet: true,
    allowDuplicate: true,
  });

export const useBellAlarms = () =>
  useQuery({
    queryKey: keys.alarms.bell(),
    queryFn: getBellAlarms,
    refetchInterval: ALARM_POLL_MS,
    refetchIntervalInBackground: true,
  });

export const useAlarmHistory = (query: AlarmHistoryQuery) =>
  useQuery({
    queryKey: keys.alarms.history(query),
    queryFn: () => getAlarmHistory(query),
    placeholderData: keepPreviousData,
  });

/**
 * The alarms of these things over [start, end), for a chart's marks (components/charts/alarm-marks.ts);
 * asked again as often as the bell asks, so a new alarm appears on an open chart. The first
 * MAX_SPAN_THINGS things only: a chart of more has more lines than anyone reads.
 */
export function useAlarmSpans(thingIds: readonly number[], start: number, end: number) {
  const ids = [...new Set(thingIds)].sort((a, b) => a - b).slice(0, MAX_SPAN_THINGS);
  return useQuery({
    queryKey: keys.alarms.spans(ids, start, end),
    queryFn: () =>
      call(alarmSpans, { query: { thingIds: ids.join(','), start, end }, silent: true, quiet: true }),
    enabled: ids.length > 0 && end > start,
    refetchInterval: ALARM_POLL_MS,
    placeholderData: keepPreviousData,
    select: (answer) => answer.list,
  });
}

/** A chart's things: a device, or a region with every device under it (of one category, if given). */
export interface AlarmTarget {
  resourceType: 'thing' | 'region';
  resourceId: number;
  categoryId?: number | null;
}

/** Distinct thing ids under a node of the tree with things (the node itself included). */
export function thingsUnder(nodes: readonly RegionNode[], regionId: number): number[] {
  const find = (list: readonly RegionNode[]): RegionNode | null => {
    for (const n of list) {
      if (n.resourceType === 'region' && n.id === regionId) return n;
      const hit = find(n.children ?? []);
      if (hit) return hit;
    }
    return null;
  };
  const out = new Set<number>();
  const collect = (n: RegionNode) => {
    if (n.resourceType === 'thing') out.add(n.thingId ?? n.id);
    for (const c of n.children ?? []) collect(c);
  };
  const region = find(nodes);
  if (region) collect(region);
  return [...out];
}

/**
 * The alarms of a chart's device or region over [start, end) (`useAlarmSpans`); a region stands
 * for the devices under it, read from the tree with things the monitoring screens share.
 */
export function useTargetAlarmSpans(target: AlarmTarget | null, start: number, end: number) {
  const region = target?.resourceType === 'region';
  const options = { withThings: true, categoryId: target?.categoryId ?? null };
  const tree = useQuery({
    // The monitoring screens' tree (same key, same answer), asked in the background: marks are
    // not worth a loading overlay on a wall screen, nor a message when they cannot be drawn.
    queryKey: keys.regions.tree(options),
    queryFn: () =>
      call(regionTree, {
        query: { withThings: true, categoryId: options.categoryId ?? undefined },
        silent: true,
        quiet: true,
      }),
    enabled: region,
    staleTime: 60_000,
  });
  const things = useMemo(
    () =>
      !target
        ? []
        : target.resourceType === 'thing'
          ? [target.resourceId]
          : thingsUnder(tree.data ?? [], target.resourceId),
    [target, tree.data],
  );
  return useAlarmSpans(things, start, end);
}

/** One device's event log over [start, end) (docs/alarms.md, "A device's event log"). */
export const useThingEvents = (thingId: number | null, start: number, end: number) =>
  useQuery({
    queryKey: keys.alarms.thingEvents(thingId ?? 0, start, end),
    queryFn: () => call(alarmThingEvents, { params: { id: thingId! }, query: { start, end } }),
    enabled: thingId !== null && end > start,
    placeholderData: keepPreviousData,
  });

export const useAlarm = (id: number | null) =>
  useQuery({
    queryKey: keys.alarms.alarm(id ?? 0),
    queryFn: () => call(alarmHistoryGet, { params: { id: id! }, silent: true }),
    enabled: id != null,
  });

function useAlarmMutation<V, R>(fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.alarms.all }),
  });
}

/**
 * Acknowledge, comment, shelve, unshelve or close. Its invalidation of `keys.alarms.all` is the one
 * signal of the change: the bell's key is under it, so the bell asks again at once (spec §4).
 */
export const useAlarmAction = () =>
  useAlarmMutation(({ id, body }: { id: number; body: AlarmActionBody }) =>
    call(alarmHistoryAction, { params: { id }, body }),
  );

// ---- rules --------------------------------------------------------------------------------------

export const useAlarmRules = (query: AlarmRuleQuery) =>
  useQuery({
    queryKey: keys.alarms.rules(query),
    queryFn: () => call(alarmRuleList, { query, silent: true }),
    placeholderData: keepPreviousData,
  });

export const useSaveAlarmRule = () =>
  useAlarmMutation(({ id, input }: { id: number | null; input: AlarmRuleInput }) =>
    id === null
      ? call(alarmRuleCreate, { body: input })
      : call(alarmRuleUpdate, { params: { id }, body: input }),
  );

export const useDeleteAlarmRule = () =>
  useAlarmMutation((id: number) => call(alarmRuleDelete, { params: { id } }));

export const useSetAlarmRuleState = () =>
  useAlarmMutation(({ id, enabled }: { id: number; enabled: boolean }) =>
    call(alarmRuleState, { params: { id }, body: { action: enabled ? 'enable' : 'disable' } }),
  );

/** Runs a rule over stored history; nothing is written, so nothing is invalidated. */
export const useBacktest = () =>
  useMutation({ mutationFn: (body: BacktestBody) => call(alarmRuleBacktest, { body }) });

// ---- templates ----------------------------------------------------------------------------------

export const getAlarmTemplates = (query: AlarmTemplateQuery) =>
  call(alarmTemplateList, { query, silent: true });

export const useAlarmTemplates = (query: AlarmTemplateQuery) =>
  useQuery({
    queryKey: keys.alarms.templates(query),
    queryFn: () => getAlarmTemplates(query),
    placeholderData: keepPreviousData,
  });

export const createAlarmTemplate = (body: AlarmTemplateInput) => call(alarmTemplateCreate, { body });

export const updateAlarmTemplate = (id: number, body: AlarmTemplateInput) =>
  call(alarmTemplateUpdate, { params: { id }, body });

export const deleteAlarmTemplate = (id: number) => call(alarmTemplateDelete, { params: { id } });

// ---- monitors -----------------------------------------------------------------------------------

export const useAlarmMonitors = (query: AlarmMonitorQuery) =>
  useQuery({
    queryKey: keys.alarms.monitors(query),
    queryFn: () => call(alarmMonitorList, { query, silent: true }),
    placeholderData: keepPreviousData,
  });

export const useApplyMonitors = () =>
  useAlarmMutation((body: MonitorBatch) => call(alarmMonitorBatch, { body }));

export const useDeleteMonitor = () =>
  useAlarmMutation((id: number) => call(alarmMonitorDelete, { params: { id } }));

// ---- system health ------------------------------------------------------------------------------

/** The alarm system's health over a range (EEMUA 191); history only grows, so it is asked again on focus. */
export const useAlarmHealth = (query: AlarmHealthQuery) =>
  useQuery({
    queryKey: keys.alarms.health(query),
    queryFn: () => call(alarmHealth, { query, silent: true }),
    placeholderData: keepPreviousData,
  });

// ---- out of service -----------------------------------------------------------------------------

export const useOutOfService = (query: OutOfServiceQuery, enabled = true) =>
  useQuery({
    queryKey: keys.alarms.outOfService(query),
    queryFn: () => call(alarmOutOfServiceList, { query, silent: true }),
    placeholderData: keepPreviousData,
    enabled,
  });

/** Taking an alarm out of service closes its open alarm: the invalidation tells the bell, as after an action. */
export const useTakeOutOfService = () =>
  useAlarmMutation((body: OutOfServiceInput) => call(alarmOutOfServiceCreate, { body }));

export const useReturnToService = () =>
  useAlarmMutation((id: number) => call(alarmOutOfServiceDelete, { params: { id } }));
// ---- maintenance windows ------------------------------------------------------------------------

export const useMaintenanceWindows = (query: MaintenanceQuery) =>
  useQuery({
    queryKey: keys.alarms.maintenance(query),
    queryFn: () => call(alarmMaintenanceList, { query, silent: true }),
    placeholderData: keepPreviousData,
  });

/** One window per target: the dialog plans the same range on every device or region chosen. */
export const usePlanMaintenance = () =>
  useAlarmMutation(async (inputs: MaintenanceInput[]) => {
    for (const body of inputs) await call(alarmMaintenanceCreate, { body });
  });

export const useDeleteMaintenance = () =>
  useAlarmMutation((id: number) => call(alarmMaintenanceDelete, { params: { id } }));

// ---- notification settings (docs/alarms.md, Notifications) --------------------------------------

export const useNotifySmtp = () =>
  useQuery({ queryKey: keys.alarms.notifySmtp(), queryFn: () => call(alarmNotifySmtpGet, { silent: true }) });

export const useSaveNotifySmtp = () =>
  useAlarmMutation((body: SmtpSettingsInput) => call(alarmNotifySmtpUpdate, { body }));

/** Sends now, outside the outbox: nothing changes, so nothing is invalidated. */
export const useTestNotifySmtp = () =>
  useMutation({ mutationFn: (to: string) => call(alarmNotifySmtpTest, { body: { to } }) });

export const useNotifyRoutes = () =>
  useQuery({
    queryKey: keys.alarms.notifyRoutes(),
    queryFn: () => call(alarmNotifyRouteList, { silent: true }),
  });

export const useSaveNotifyRoute = () =>
  useAlarmMutation(({ id, input }: { id: number | null; input: NotifyRouteInput }) =>
    id === null
      ? call(alarmNotifyRouteCreate, { body: input })
      : call(alarmNotifyRouteUpdate, { params: { id }, body: input }),
  );

export const useDeleteNotifyRoute = () =>
  useAlarmMutation((id: number) => call(alarmNotifyRouteDelete, { params: { id } }));

export const useTestNotifyRoute = () =>
  useMutation({ mutationFn: (id: number) => call(alarmNotifyRouteTest, { params: { id } }) });

export const useNotifyOutbox = (query: NotifyOutboxQuery) =>
  useQuery({
    queryKey: keys.alarms.notifyOutbox(query),
    queryFn: () => call(alarmNotifyOutboxList, { query, silent: true }),
    placeholderData: keepPreviousData,
  });
