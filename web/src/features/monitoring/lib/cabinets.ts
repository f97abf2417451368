import type { Cabinet } from '@kilowatch/contract';
import { isStatusMetric } from '../../../components/charts/series.ts';
import { isOnline, runState, statusEntry } from './status.ts';

/** Filters of the cabinet grid: everything, or only the online or offline ones. */
export type CabinetFilter = 'all' | 'online' | 'offline';

/** Cabinets whose name or identifier contains `search` (any case) and that pass the filter. */
export function filterCabinets(list: readonly Cabinet[], search: string, filter: CabinetFilter): Cabinet[] {
  const needle = search.trim().toLowerCase();
  return list.filter((c) => {
    if (filter !== 'all' && isOnline(c.lastSeenAgo) !== (filter === 'online')) return false;
    if (!needle) return true;
    return c.name.toLowerCase().includes(needle) || c.identifier.toLowerCase().includes(needle);
  });
}

/** The plant at a glance: how many cabinets, online, offline and running. */
export function cabinetOverview(list: readonly Cabinet[]) {
  let online = 0;
  let running = 0;
  for (const c of list) {
    if (isOnline(c.lastSeenAgo)) online += 1;
    const status = statusEntry(Object.values(c.attrMap));
    if (status && runState(status.value) === 'running') running += 1;
  }
  return { total: list.length, online, offline: list.length - online, running };
}

/**
 * The columns of a cabinet export: every ability seen in the list, in first-seen order, with its
 * unit, the run state left out (it has its own column).
 */
export function cabinetColumns(
  list: readonly Cabinet[],
): { identifier: string; name: string; unit: string }[] {
  const seen = new Map<string, { identifier: string; name: string; unit: string }>();
  for (const c of list) {
    for (const [identifier, v] of Object.entries(c.attrMap)) {
      if (!seen.has(identifier) && !isStatusMetric(v.name))
        seen.set(identifier, { identifier, name: v.name, unit: v.unit });
    }
  }
  return [...seen.values()];
}
