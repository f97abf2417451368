import { type LiveValue, queryLive, queryRealtime } from '@kilowatch/contract';
import { useEffect, useState } from 'react';
import { call } from '../lib/call.ts';
import { useSession } from '../lib/session.ts';

/**
 * Latest values of some things, live: the SSE channel GET /api/query/live (a snapshot, then each
 * written batch) on top of a slow poll of GET /api/query/realtime, as the endpoint asks, so values
 * keep coming while the stream reconnects.
 */

/** `${thingId}.${metric}` → latest value and its time. */
export type LiveMap = ReadonlyMap<string, { value: number | string; ts: number }>;
export const liveKey = (thingId: number, metric: string) => `${thingId}.${metric}`;

/** The poll under the stream. */
export const LIVE_POLL_MS = 30_000;
/** Pause before opening a stream again after it ended (expired token, server restart). */
const REOPEN_MS = 5_000;

const newer = (map: Map<string, { value: number | string; ts: number }>, values: readonly LiveValue[]) => {
  let changed = false;
  for (const v of values) {
    const key = liveKey(v.thingId, v.metric);
    const known = map.get(key);
    if (known && known.ts > v.ts) continue;
    map.set(key, { value: v.value, ts: v.ts });
    changed = true;
  }
  return changed;
};

export function useLiveValues(thingIds: readonly number[]): LiveMap {
  const token = useSession((s) => s.token);
  const ids = [...new Set(thingIds)].sort((a, b) => a - b).join(',');
  const [values, setValues] = useState<LiveMap>(new Map());

  useEffect(() => {
    if (!ids || !token) return;
    const map = new Map<string, { value: number | string; ts: number }>();
    let stopped = false;
    let source: EventSource | null = null;
    let reopen: ReturnType<typeof setTimeout> | undefined;
    const take = (list: readonly LiveValue[]) => {
      if (!stopped && newer(map, list)) setValues(new Map(map));
    };

    const poll = async () => {
      // A failed poll is asked again on the next tick while the stream carries on: no toast every 30 s.
      const answers = await Promise.allSettled(
        ids.split(',').map((id) =>
          call(queryRealtime, {
            query: { resourceType: 'thing', resourceId: Number(id) },
            silent: true,
            quiet: true,
          }),
        ),
      );
      take(
        answers
          .flatMap((a) => (a.status === 'fulfilled' ? a.value : []))
          .filter((s) => s.value !== null && s.ts !== null)
          .map((s) => ({ thingId: s.thingId, metric: s.operation, ts: s.ts!, value: s.value! })),
      );
    };
    const open = () => {
      const current = useSession.getState().token ?? token;
      source = new EventSource(`${queryLive.path}?thingIds=${ids}&token=${encodeURIComponent(current)}`);
      source.addEventListener('values', (event) =>
        take(JSON.parse((event as MessageEvent<string>).data) as LiveValue[]),
      );
      source.addEventListener('end', () => {
        source?.close();
        if (!stopped) reopen = setTimeout(open, REOPEN_MS);
      });
    };

    void poll();
    const timer = setInterval(() => void poll(), LIVE_POLL_MS);
    open();
    return () => {
      stopped = true;
      clearInterval(timer);
      clearTimeout(reopen);
      source?.close();
    };
  }, [ids, token]);

  return values;
}
