import { ONLINE_WINDOW_MS, type Presence } from '@kilowatch/contract';

/** What the telemetry store last saw of a thing (its `lastSeen()`; the device list never imports the store). */
export interface ThingSeen {
  ts: number;
  intervalMs: number | null;
}

/**
 * How long after its newest value a thing still counts as online: 5 minutes, or three of its
 * usual intervals when it reports more slowly (a meter sending every 15 minutes is not offline
 * between two readings). The same rule as the store's gap tolerance, with a wider floor.
 */
const onlineWindowMs = (intervalMs: number | null): number =>
  Math.max(ONLINE_WINDOW_MS, 3 * (intervalMs ?? 0));

/**
 * A thing's presence at `now` from what the store last saw of it.
 * @example presenceOf({ ts: now - 60_000, intervalMs: 10_000 }, now) // { lastSeen: now - 60000, presence: 'online' }
 */
export function presenceOf(
  seen: ThingSeen | undefined,
  now: number,
): { lastSeen: number | null; presence: Presence } {
  if (!seen) return { lastSeen: null, presence: 'never' };
  const online = now - seen.ts <= onlineWindowMs(seen.intervalMs);
  return { lastSeen: seen.ts, presence: online ? 'online' : 'offline' };
}
