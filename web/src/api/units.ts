import { UNIT_CACHE_KEY, UNIT_PAGE_SIZE, type Unit, unitList } from '@kilowatch/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../lib/call.ts';
import { keys } from './keys.ts';

/** The unit list kept in local storage (spec §9), or undefined when absent or unreadable. */
function readCachedUnits(): Unit[] | undefined {
  try {
    const raw = localStorage.getItem(UNIT_CACHE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : undefined;
    return Array.isArray(parsed) ? (parsed as Unit[]) : undefined;
  } catch {
    return undefined;
  }
}

/** Fetches every unit (one page of 1000) and refreshes the local-storage copy. */
async function getAllUnits(): Promise<Unit[]> {
  const page = await call(unitList, { query: { page: 1, pageSize: UNIT_PAGE_SIZE }, silent: true });
  localStorage.setItem(UNIT_CACHE_KEY, JSON.stringify(page.list));
  return page.list;
}

/**
 * Every measurement unit: shown at once from the `unitAll` cache, then refreshed from the
 * server (the cache counts as old, so it is fetched once per session view).
 */
export const useUnits = () =>
  useQuery({
    queryKey: keys.units.all,
    queryFn: getAllUnits,
    initialData: readCachedUnits,
    initialDataUpdatedAt: 0,
    staleTime: 5 * 60_000,
  });
