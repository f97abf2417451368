import type { RegionNode } from '@kilowatch/contract';
import { useCallback, useMemo } from 'react';
import { useSearchPatch } from '../../../lib/search-patch.ts';
import { defaultSelection, type Selection } from './tree.ts';

const positiveInt = (v: string | null): number | null => {
  const n = Number(v);
  return v !== null && Number.isInteger(n) && n > 0 ? n : null;
};

/** Reads the selection from search params; null when absent or malformed. */
export function parseSelection(params: URLSearchParams): Selection | null {
  const type = params.get('resourceType');
  const id = positiveInt(params.get('resourceId'));
  if ((type !== 'region' && type !== 'thing') || id === null) return null;
  return { resourceType: type, resourceId: id };
}

const parseCategory = (params: URLSearchParams): number | null => positiveInt(params.get('categoryId'));

/** The selection, or when the address names none the first root region (else the first device). */
export const effectiveSelection = (
  selection: Selection | null,
  roots: readonly RegionNode[] | undefined,
): Selection | null => selection ?? (roots ? defaultSelection(roots) : null);

/** Selection and category filter in the address; updates replace the history entry. */
export function useMonitorParams() {
  const [params, update] = useSearchPatch();
  const selection = useMemo(() => parseSelection(params), [params]);
  const categoryId = parseCategory(params);
  const select = useCallback(
    (s: Selection) => update({ resourceType: s.resourceType, resourceId: s.resourceId }),
    [update],
  );
  const setCategory = useCallback((id: number | null) => update({ categoryId: id }), [update]);
  return { params, selection, categoryId, select, setCategory, update };
}
