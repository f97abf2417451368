import { type LiveValue, queryLive } from '@kilowatch/contract';
import { useEffect, useMemo, useState } from 'react';
import { buildUrl, currentAccessToken } from '../lib/http.ts';

/** Wait before opening the stream again after it ended (token expired, server restarted). */
const REOPEN_MS = 5_000;

/** `thingId:metric`, the key of a live value. */
export const liveKey = (thingId: number, metric: string) => `${thingId}:${metric}`;

/**
 * The latest values of these things as they are written (GET /api/query/live, Server-Sent
 * Events from the live hub): first a snapshot, then each batch. A layer on top of polling, not
 * instead of it: when the stream ends (token expired, the server went away) the values already
 * shown stay, and the stream opens again with a fresh token a few seconds later.
 */
export function useLiveValues(thingIds: readonly number[]): ReadonlyMap<string, LiveValue> {
  const [values, setValues] = useState<ReadonlyMap<string, LiveValue>>(new Map());
  const ids = useMemo(() => [...new Set(thingIds)].sort((a, b) => a - b).join(','), [thingIds]);

  useEffect(() => {
    if (!ids || typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const reopen = () => {
      source?.close();
      source = null;
      if (!stopped) timer = setTimeout(open, REOPEN_MS);
    };
    const open = async () => {
      const token = await currentAccessToken();
      if (stopped || !token) return;
      source = new EventSource(buildUrl(queryLive.path, { thingIds: ids, token }));
      source.addEventListener('values', (event) => {
        const batch = JSON.parse((event as MessageEvent<string>).data) as LiveValue[];
        setValues((before) => {
          const next = new Map(before);
          for (const v of batch) {
            const key = liveKey(v.thingId, v.metric);
            const was = next.get(key);
            if (!was || was.ts <= v.ts) next.set(key, v);
          }
          return next;
        });
      });
      source.addEventListener('end', reopen);
      source.onerror = () => {
        // EventSource retries by itself while the connection can come back; a closed one cannot.
        if (source?.readyState === EventSource.CLOSED) reopen();
      };
    };
    void open();
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
  }, [ids]);

  return values;
}
