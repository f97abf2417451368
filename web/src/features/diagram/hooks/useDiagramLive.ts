import { ALARM_STATE, alarmHistoryList, type DiagramGraph, type EffectiveAbility } from '@kilowatch/contract';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { ALARM_POLL_MS } from '../../../api/alarms.ts';
import { keys } from '../../../api/keys.ts';
import { useLiveWithFallback } from '../../../api/live.ts';
import { thingAbilitiesQuery } from '../../../api/things.ts';
import { call } from '../../../lib/call.ts';
import { diagramView } from '../lib/live-view.ts';
import type { Latest } from '../lib/topology.ts';

/** Alarms a diagram flashes: active ones, acknowledged or not (shelved and returned ones are not). */
const ACTIVE_STATES = [ALARM_STATE.unacknowledged, ALARM_STATE.acknowledged] as const;
/** The most active alarms read per state: a plant with more has bigger problems than a diagram. */
const ACTIVE_PAGE = 1000;

/** Things with an active alarm, asked as often as the bell asks. */
function useAlarmedThings(enabled: boolean): ReadonlySet<number> {
  const active = useQuery({
    queryKey: [...keys.alarms.all, 'active-things'],
    queryFn: async () => {
      const pages = await Promise.all(
        ACTIVE_STATES.map((state) =>
          call(alarmHistoryList, {
            query: { page: 1, pageSize: ACTIVE_PAGE, state },
            silent: true,
            quiet: true,
          }),
        ),
      );
      return pages.flatMap((p) => p.list.map((a) => a.thingId));
    },
    refetchInterval: ALARM_POLL_MS,
    enabled,
  });
  return useMemo(() => new Set(active.data ?? []), [active.data]);
}

/** The abilities (names, units) of every bound thing, by thing id. */
function useBoundAbilities(thingIds: readonly number[]): ReadonlyMap<number, readonly EffectiveAbility[]> {
  const results = useQueries({ queries: thingIds.map((id) => thingAbilitiesQuery(id)) });
  const data = results.map((r) => r.data);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the answers themselves are the inputs
  return useMemo(() => new Map(thingIds.map((id, i) => [id, data[i] ?? []])), [thingIds.join(','), ...data]);
}

/** Live values, alarms and what they mean on the diagram, while monitoring. */
export function useDiagramLive(graph: DiagramGraph | undefined, enabled: boolean) {
  const thingIds = useMemo(
    () =>
      [...new Set((graph?.nodes ?? []).flatMap((n) => (n.binding ? [n.binding.thingId] : [])))].sort(
        (a, b) => a - b,
      ),
    [graph],
  );
  const live = useLiveWithFallback(enabled ? thingIds : []).values;
  const alarmed = useAlarmedThings(enabled && thingIds.length > 0);
  const abilities = useBoundAbilities(thingIds);
  const latest: Latest = useCallback((thingId, metric) => live.get(thingId)?.get(metric)?.value, [live]);
  const view = useMemo(() => (graph ? diagramView(graph, latest, alarmed) : null), [graph, latest, alarmed]);
  return { latest, view, abilities, thingIds };
}
