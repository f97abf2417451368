import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * Id filters of a table kept in the address next to CrudPage's page and name, so a reload or
 * a shared link keeps them. Changing a filter goes back to page 1.
 */
export function useIdFilters<K extends string>(
  keys: readonly K[],
): [Partial<Record<K, number>>, (next: Partial<Record<K, number | undefined>>) => void] {
  const [search, setSearch] = useSearchParams();
  const values: Partial<Record<K, number>> = {};
  for (const key of keys) {
    const n = Number(search.get(key));
    if (Number.isInteger(n) && n > 0) values[key] = n;
  }
  const update = useCallback(
    (next: Partial<Record<K, number | undefined>>) =>
      setSearch(
        (prev) => {
          const merged = new URLSearchParams(prev);
          for (const [key, value] of Object.entries(next)) {
            if (value == null) merged.delete(key);
            else merged.set(key, String(value));
          }
          merged.delete('page');
          return merged;
        },
        { replace: true },
      ),
    [setSearch],
  );
  return [values, update];
}
