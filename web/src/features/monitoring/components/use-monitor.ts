import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { regionTreeQuery, unboundThingsQuery } from '../../../api/regions.ts';
import { effectiveSelection, useMonitorParams } from '../lib/selection.ts';
import { findNode, withUnassigned } from '../lib/tree.ts';

/**
 * The region/device tree (devices bound to no region in a group of their own), the selected
 * resource (address, else the first region or device) and the category filter.
 */
export function useMonitor() {
  const { t } = useTranslation();
  const params = useMonitorParams();
  const tree = useQuery(regionTreeQuery({ withThings: true, categoryId: params.categoryId }));
  const unbound = useQuery(unboundThingsQuery(params.categoryId));
  const label = t('monitoring.tree.unassigned');
  const roots = useMemo(
    () => (tree.data ? withUnassigned(tree.data, unbound.data ?? [], label) : undefined),
    [tree.data, unbound.data, label],
  );
  const selection = useMemo(() => effectiveSelection(params.selection, roots), [params.selection, roots]);
  const node = useMemo(() => (selection && roots ? findNode(roots, selection) : null), [selection, roots]);
  return { ...params, tree, unbound, roots: roots ?? [], selection, node };
}

export type MonitorContext = ReturnType<typeof useMonitor>;
