import { useCallback } from 'react';
import { useSearchPatch } from '../../../lib/search-patch.ts';

/**
 * Id filters of a table kept in the address next to CrudPage's page and name, so a reload or
 * a shared link keeps them. Changing a filter goes back to page 1.
 */
export function useIdFilters<K extends string>(
  keys: readonly K[],
): [Partial<Record<K, number>>, (next: Partial<Record<K, number | undefined>>) => void] {
  const [search, patch] = useSearchPatch();
  const values: Partial<Record<K, number>> = {};
  for (const key of keys) {
    const n = Number(search.get(key));
    if (Number.isInteger(n) && n > 0) values[key] = n;
  }
  const update = useCallback(
    (next: Partial<Record<K, number | undefined>>) => patch({ ...next, page: null }),
    [patch],
  );
  return [values, update];
}
