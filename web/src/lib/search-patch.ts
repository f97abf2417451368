import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/** Keys of the address's search to set; null, undefined or '' removes the key. */
export type SearchPatch = Readonly<Record<string, string | number | null | undefined>>;

/** `prev` with `patch` applied (exported for its test). */
export function patchSearch(prev: URLSearchParams, patch: SearchPatch): URLSearchParams {
  const next = new URLSearchParams(prev);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || value === undefined || value === '') next.delete(key);
    else next.set(key, String(value));
  }
  return next;
}

/**
 * The address's search and a patch of it: the keys named change, the others stay, and the history
 * entry is replaced (a filter is not a page to go back to). The one way a screen writes its state
 * into the address. `patch({ presence: 'online', page: null })`.
 */
export function useSearchPatch(): [URLSearchParams, (patch: SearchPatch) => void] {
  const [search, setSearch] = useSearchParams();
  const patch = useCallback(
    (change: SearchPatch) => setSearch((prev) => patchSearch(prev, change), { replace: true }),
    [setSearch],
  );
  return [search, patch];
}
