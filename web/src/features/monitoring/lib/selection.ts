import type { RegionNode } from '@kilowatch/contract';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
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
  const [params, setParams] = useSearchParams();
  const selection = useMemo(() => parseSelection(params), [params]);
  const categoryId = parseCategory(params);
  const update = useCallback(
    (change: Record<string, string | number | null>) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(change)) {
            if (v === null || v === '') next.delete(k);
            else next.set(k, String(v));
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const select = useCallback(
    (s: Selection) => update({ resourceType: s.resourceType, resourceId: s.resourceId }),
    [update],
  );
  const setCategory = useCallback((id: number | null) => update({ categoryId: id }), [update]);
  return { params, selection, categoryId, select, setCategory, update };
}
