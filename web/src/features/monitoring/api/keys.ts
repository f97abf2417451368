import type { Selection } from '../lib/selection.ts';

/** Query keys of the monitoring views (telemetry data and configs use telemetryKeys). */
export const monitoringKeys = {
  all: ['monitoring'] as const,
  /** Device status of one tick. */
  status: (s: Selection, categoryId: number | null, seq: string | null) =>
    [...monitoringKeys.all, 'status', s.resourceType, s.resourceId, categoryId, seq] as const,
  /** Cabinets of a region (with descendants), of one tick or poll. */
  cabinets: (regionId: number, categoryId: number | null, seq: string | null = null) =>
    [...monitoringKeys.all, 'cabinets', regionId, categoryId, seq] as const,
  /** Devices bound to no region (the tree's "unassigned" group). */
  unbound: (categoryId: number | null) => [...monitoringKeys.all, 'unbound', categoryId] as const,
};
