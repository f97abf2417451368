import { type LiveValue, queryLive, queryLiveTicket, queryRealtime } from '@kilowatch/contract';
import { useQueries } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { call } from '../lib/call.ts';
import { buildUrl } from '../lib/http.ts';
import { keys } from './keys.ts';

/**
 * The live channel (GET /api/query/live, Server-Sent Events fed by the server's live hub): values
 * as they are written, first a snapshot of the latest. Made for screens that stay open for days:
 * one EventSource per subscription, reopened with a fresh ticket when the server ends the stream
 * (token expiry, event `end`) or the connection drops, with a capped back-off; unsubscribing
 * closes it and cancels any pending reopen. EventSource cannot send headers: each opening asks
 * for a single-use stream ticket (POST /api/query/live/ticket, with the access token as a header)
 * and puts that in the URL, never the access token.
 */

/** Back-off of reopening: doubles from the first to the last, reset by the first message. */
export const LIVE_RETRY_MS = { first: 1_000, max: 30_000 } as const;

/** `idle`: nothing to follow (no things asked for), so no stream is opened. */
export type LiveStatus = 'idle' | 'connecting' | 'open' | 'retrying';

export interface LiveHandlers {
  onValues: (values: LiveValue[]) => void;
  onStatus?: (status: LiveStatus) => void;
}

/** Follows these things' values until the returned function is called. */
export function subscribeLive(thingIds: readonly number[], { onValues, onStatus }: LiveHandlers): () => void {
  let source: EventSource | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let delay: number = LIVE_RETRY_MS.first;
  let closed = false;

  const reopen = () => {
    source?.close();
    source = null;
    if (closed) return;
    onStatus?.('retrying');
    retry = setTimeout(open, delay);
    delay = Math.min(delay * 2, LIVE_RETRY_MS.max);
  };

  async function open() {
    retry = null;
    onStatus?.('connecting');
    // The call refreshes the access token first; when the session is over, http.ts sends the user
    // to the login page. Several subscriptions ask at once: each needs its own ticket.
    const ticket = await call(queryLiveTicket, { silent: true, quiet: true, allowDuplicate: true })
      .then((answer) => answer.ticket)
      .catch(() => null);
    if (closed) return;
    if (!ticket) return reopen();
    const es = new EventSource(buildUrl(queryLive.path, { thingIds: thingIds.join(','), ticket }));
    source = es;
    es.addEventListener('open', () => onStatus?.('open'));
    es.addEventListener('values', (event) => {
      delay = LIVE_RETRY_MS.first;
      onValues(JSON.parse((event as MessageEvent<string>).data) as LiveValue[]);
    });
    // The server ended the stream (token expired, logout…): reopen with a ticket for the current token.
    es.addEventListener('end', reopen);
    // EventSource would retry by itself with the same (already used) ticket: take over instead.
    es.addEventListener('error', reopen);
  }

  if (thingIds.length > 0) void open();
  return () => {
    closed = true;
    if (retry !== null) clearTimeout(retry);
    source?.close();
    source = null;
  };
}

/** Latest value per thing and metric: one entry per series, however long the screen stays open. */
export type LatestValues = ReadonlyMap<number, ReadonlyMap<string, LiveValue>>;

const EMPTY: LatestValues = new Map();

/** Merges a batch into the latest values; a late, older point does not replace a newer one. */
export function mergeLive(latest: LatestValues, values: readonly LiveValue[]): LatestValues {
  if (values.length === 0) return latest;
  const next = new Map(latest);
  // Each thing's map is copied once per batch, not once per value.
  const copied = new Map<number, Map<string, LiveValue>>();
  for (const v of values) {
    let own = copied.get(v.thingId);
    if (!own) {
      own = new Map(next.get(v.thingId) ?? []);
      copied.set(v.thingId, own);
      next.set(v.thingId, own);
    }
    const known = own.get(v.metric);
    if (!known || known.ts <= v.ts) own.set(v.metric, v);
  }
  return next;
}

/**
 * The latest live values of these things, kept current over the live channel. The subscription
 * changes only when the set of ids does; values of things no longer asked for are dropped.
 */
function useLiveByThing(thingIds: readonly number[]): { values: LatestValues; status: LiveStatus } {
  const key = [...new Set(thingIds)].sort((a, b) => a - b).join(',');
  const [values, setValues] = useState<LatestValues>(EMPTY);
  const [status, setStatus] = useState<LiveStatus>('connecting');
  useEffect(() => {
    const ids = key === '' ? [] : key.split(',').map(Number);
    setValues(EMPTY);
    return subscribeLive(ids, {
      onValues: (batch) => setValues((latest) => mergeLive(latest, batch)),
      onStatus: setStatus,
    });
  }, [key]);
  // With no things nothing is opened: not "connecting" for ever.
  return { values, status: key === '' ? 'idle' : status };
}

/** `thingId:metric`, the key of a live value in {@link useLiveValues}'s map. */
export const liveKey = (thingId: number, metric: string) => `${thingId}:${metric}`;

/**
 * The latest values of these things keyed by {@link liveKey} (the board's tiles): the same
 * subscription as {@link useLiveByThing}, flattened. A layer on top of polling: values already
 * shown stay while the stream reopens.
 */
export function useLiveValues(thingIds: readonly number[]): ReadonlyMap<string, LiveValue> {
  const { values } = useLiveByThing(thingIds);
  return useMemo(() => {
    const flat = new Map<string, LiveValue>();
    for (const [thingId, metrics] of values)
      for (const [metric, value] of metrics) flat.set(liveKey(thingId, metric), value);
    return flat;
  }, [values]);
}

/** The poll that stands in for the live channel while it is down (GET /api/query/realtime per thing). */
export const LIVE_FALLBACK_POLL_MS = 30_000;

/**
 * The latest values of these things: over the live channel, and polled only while the channel is
 * down (it failed and is waiting to reopen), so a screen left open for days never shows values
 * frozen by a dead stream, nor asks the server twice for what the stream already brings. The
 * newer of the stream's and the poll's value of each series wins.
 */
export function useLiveWithFallback(thingIds: readonly number[]): {
  values: LatestValues;
  status: LiveStatus;
  polling: boolean;
} {
  const live = useLiveByThing(thingIds);
  // Down from the first failure until the stream opens again; 'connecting' keeps the last verdict,
  // so the first connection does not poll and a reopen in back-off keeps polling.
  const [down, setDown] = useState(false);
  useEffect(() => {
    if (live.status === 'retrying') setDown(true);
    else if (live.status === 'open') setDown(false);
  }, [live.status]);
  const key = [...new Set(thingIds)].sort((a, b) => a - b).join(',');
  const ids = useMemo(() => (key === '' ? [] : key.split(',').map(Number)), [key]);
  const polled = useQueries({
    queries: ids.map((id) => ({
      queryKey: keys.telemetry.realtime({ resourceType: 'thing', resourceId: id }, 'live-fallback'),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        call(queryRealtime, {
          query: { resourceType: 'thing', resourceId: id },
          silent: true,
          quiet: true,
          signal,
        }),
      refetchInterval: LIVE_FALLBACK_POLL_MS,
      enabled: down,
      // Only worth keeping while it stands in for the stream.
      gcTime: 0,
    })),
  });
  // A new map only when an answer arrived.
  const stamp = polled.map((r) => r.dataUpdatedAt).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `stamp` changes with every answer
  const values = useMemo(() => {
    const fromPoll: LiveValue[] = [];
    for (const status of polled.flatMap((r) => r.data ?? [])) {
      if (status.value !== null && status.ts !== null)
        fromPoll.push({
          thingId: status.thingId,
          metric: status.operation,
          value: status.value,
          ts: status.ts,
        });
    }
    return mergeLive(live.values, fromPoll);
  }, [live.values, stamp]);
  return { values, status: live.status, polling: down };
}
