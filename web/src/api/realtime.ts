import { boardComponents, queryRealtime, telemetryConnection } from '@kilowatch/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../lib/call.ts';
import { keys, type ResourceRef } from './keys.ts';

/**
 * Latest values: per resource (GET /api/query/realtime), per cabinet (GET /api/board/components),
 * and where devices send them (GET /api/telemetry/connection).
 */

/** GET /api/query/realtime: the latest value of each ability (silent: it runs every tick). */
export const fetchDeviceStatus = (r: ResourceRef, signal?: AbortSignal) =>
  call(queryRealtime, {
    query: { resourceId: r.resourceId, resourceType: r.resourceType, categoryId: r.categoryId ?? undefined },
    silent: true,
    signal,
  });

/** GET /api/board/components/{regionId}?successor=true: cabinets of the region and (by default) below. */
export const fetchCabinets = (
  regionId: number,
  categoryId: number | null,
  signal?: AbortSignal,
  successor = true,
) =>
  call(boardComponents, {
    params: { regionId },
    query: { categoryId: categoryId ?? undefined, successor },
    silent: true,
    signal,
  });

/** How often the token dialog looks for the device's first message. */
const FIRST_MESSAGE_POLL_MS = 2_000;

/** The latest value of each ability of a thing, polled while `thingId` is set. */
export const useLatestValues = (thingId: number | null) =>
  useQuery({
    queryKey: keys.telemetry.firstMessage(thingId ?? 0),
    queryFn: ({ signal }) =>
      call(queryRealtime, {
        query: { resourceType: 'thing', resourceId: thingId! },
        silent: true,
        quiet: true,
        signal,
      }),
    enabled: thingId != null,
    refetchInterval: FIRST_MESSAGE_POLL_MS,
    gcTime: 0,
  });

/** GET /api/telemetry/connection: broker host, port and topics, HTTP ingest URLs. */
export const useDeviceConnection = (enabled: boolean) =>
  useQuery({
    queryKey: keys.telemetry.connection(),
    queryFn: () => call(telemetryConnection, { silent: true, quiet: true }),
    enabled,
  });
