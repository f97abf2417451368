import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { regionTreeQuery } from '../../../components/charts/api/telemetry.ts';
import { effectiveSelection, useMonitorParams } from '../lib/selection.ts';
import { findNode } from '../lib/tree.ts';

/** The region/device tree, the selected resource (address or first root) and the category filter. */
export function useMonitor() {
  const params = useMonitorParams();
  const tree = useQuery(regionTreeQuery(true, params.categoryId));
  const roots = tree.data;
  const selection = useMemo(() => effectiveSelection(params.selection, roots), [params.selection, roots]);
  const node = useMemo(() => (selection && roots ? findNode(roots, selection) : null), [selection, roots]);
  return { ...params, tree, roots: roots ?? [], selection, node };
}

export type MonitorContext = ReturnType<typeof useMonitor>;
