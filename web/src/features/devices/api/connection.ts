import type { DeviceConnection, DeviceStatus } from '@kilowatch/contract';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { thingKeys } from './keys.ts';

/** How often the token dialog looks for the device's first message. */
export const FIRST_MESSAGE_POLL_MS = 2_000;

/** GET /api/telemetry/connection: broker host, port and topics, HTTP ingest URLs. */
export const useDeviceConnection = (enabled: boolean) =>
  useQuery({
    queryKey: thingKeys.connection(),
    queryFn: () =>
      http.get<DeviceConnection>('/api/telemetry/connection', undefined, { silent: true, quiet: true }),
    enabled,
  });

/** The latest value of each ability of a thing (GET /api/query/realtime), polled while `thingId` is set. */
export const useLatestValues = (thingId: number | null) =>
  useQuery({
    queryKey: thingKeys.latest(thingId ?? 0),
    queryFn: ({ signal }) =>
      http.get<DeviceStatus[]>(
        '/api/query/realtime',
        { resourceType: 'thing', resourceId: thingId! },
        { silent: true, quiet: true, signal },
      ),
    enabled: thingId != null,
    refetchInterval: FIRST_MESSAGE_POLL_MS,
    gcTime: 0,
  });
