import type { EffectiveAbility, ExploreSeries } from '@kilowatch/contract';
import { type UseQueryResult, useQueries, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { regionTreeQuery, unboundThingsQuery } from '../../../api/regions.ts';
import { METADATA_STALE_MS, thingAbilitiesQuery } from '../../../api/things.ts';
import { abilityThing, indexTree } from '../lib/catalog.ts';

const combineAbilities = (results: UseQueryResult<EffectiveAbility[]>[]) => ({
  lists: results.map((r) => r.data),
  pending: results.some((r) => r.isPending),
});

/**
 * Names and abilities for the series on screen: the region tree (with things) and unbound things
 * once, and the abilities of each thing a series reads (cached by thing, so a panel of twenty
 * meters of one kind asks twenty small reads once).
 */
export function useExploreCatalog(series: readonly ExploreSeries[]) {
  const tree = useQuery({ ...regionTreeQuery({ withThings: true }), staleTime: METADATA_STALE_MS });
  const unbound = useQuery({ ...unboundThingsQuery(null), staleTime: METADATA_STALE_MS });
  const index = useMemo(() => indexTree(tree.data ?? [], unbound.data ?? []), [tree.data, unbound.data]);
  const thingIds = useMemo(
    () => [...new Set(series.map((s) => abilityThing(s, index)).filter((id): id is number => id !== null))],
    [series, index],
  );
  const abilities = useQueries({
    queries: thingIds.map((id) => ({ ...thingAbilitiesQuery(id), staleTime: METADATA_STALE_MS })),
    combine: combineAbilities,
  });
  const byThing = useMemo(() => {
    const map = new Map<number, EffectiveAbility[]>();
    thingIds.forEach((id, i) => {
      const list = abilities.lists[i];
      if (list) map.set(id, list);
    });
    return map;
  }, [thingIds, abilities.lists]);
  const abilityOf = useCallback(
    (s: ExploreSeries): EffectiveAbility | undefined => {
      const thing = abilityThing(s, index);
      return thing === null ? undefined : byThing.get(thing)?.find((a) => a.identifier === s.metric);
    },
    [index, byThing],
  );
  return {
    index,
    tree: tree.data ?? [],
    unbound: unbound.data ?? [],
    abilityOf,
    /** Names or abilities still on their way: a series is not drawn under a placeholder name. */
    pending: tree.isPending || unbound.isPending || abilities.pending,
    error: tree.error ?? unbound.error,
  };
}

export type ExploreCatalog = ReturnType<typeof useExploreCatalog>;
