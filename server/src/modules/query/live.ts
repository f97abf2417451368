import type { ServerResponse } from 'node:http';
import type { LiveValue } from '@kilowatch/contract';
import { decodeJwt } from 'jose';
import { AppError } from '../../errors.ts';

/** Heartbeat of the live channel, so proxies keep it open and the client notices a dead one. */
const HEARTBEAT_MS = 15_000;
/** Live streams one user may hold open at once; the next one is answered 429. */
export const MAX_LIVE_PER_USER = 4;
/** How often an open stream re-runs the login check (and always at the token's expiry). */
export const AUTH_RECHECK_MS = 5_000;
/** A consumer that has not taken a byte for this long is dropped. */
export const STALL_MS = 30_000;
/** Distinct (thing, metric) values kept while a consumer is behind; beyond it is dropped. */
const MAX_PENDING_VALUES = 50_000;
/** Timers of the stream: stall, re-check and heartbeat are decided on this beat. */
const TICK_MS = 1_000;

export type CloseReason = 'auth' | 'stalled' | 'overflow' | 'server';

export interface LiveStreamOptions {
  raw: ServerResponse;
  /** The access token the stream was opened with. */
  token: string;
  /** The same check the authenticate hook runs: throws (401) once the token no longer grants access. */
  authenticate: (token: string) => Promise<unknown>;
  now: () => number;
  onClose: (reason: CloseReason | 'client') => void;
  /** A re-check that failed for another reason than a refused token (e.g. the database is down). */
  onCheckFailed: (error: unknown) => void;
}

const expiryOf = (token: string): number => {
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === 'number' ? exp * 1000 : Number.POSITIVE_INFINITY;
  } catch {
    // Verified at connect; a token that does not decode now is checked at the next beat anyway.
    return Number.POSITIVE_INFINITY;
  }
};

/**
 * One Server-Sent Events stream with back-pressure: events are written while the socket takes
 * them; once its high-water mark is passed, new values are coalesced to the latest per (thing, metric)
 * and sent in one event when the socket drains. A consumer stalled for STALL_MS is dropped. The
 * caller's access is re-checked every AUTH_RECHECK_MS and at the token's expiry: a stream ends
 * when its token expires, its user is disabled or their sessions are revoked.
 */
export function openLiveStream(options: LiveStreamOptions) {
  const { raw, token, authenticate, now } = options;
  const expiresAt = expiryOf(token);
  let nextCheck = Math.min(now() + AUTH_RECHECK_MS, expiresAt);
  let checking = false;
  let lastWrite = now();
  /** Since when the socket has refused more data (null: it takes what we write). */
  let blockedSince: number | null = null;
  const pending = new Map<string, LiveValue>();
  let closed = false;

  const close = (reason: CloseReason | 'client') => {
    if (closed) return;
    closed = true;
    clearInterval(beat);
    raw.off('drain', onDrain);
    options.onClose(reason);
  };

  const write = (chunk: string) => {
    lastWrite = now();
    // write() answers false once the queue passes the socket's high-water mark (16 KiB); the chunk
    // is still queued, so one stream holds at most that plus one event until 'drain'.
    if (!raw.write(chunk)) blockedSince ??= now();
  };

  const event = (values: readonly LiveValue[]) => write(`event: values\ndata: ${JSON.stringify(values)}\n\n`);

  const coalesce = (values: readonly LiveValue[]) => {
    for (const v of values) {
      const key = `${v.thingId}\u0000${v.metric}`;
      const known = pending.get(key);
      if (!known || known.ts <= v.ts) pending.set(key, v);
    }
    if (pending.size > MAX_PENDING_VALUES) drop('overflow');
  };

  function onDrain() {
    blockedSince = null;
    if (pending.size === 0) return;
    const values = [...pending.values()];
    pending.clear();
    event(values);
  }
  raw.on('drain', onDrain);

  /** Ends a stream the server gives up on: an SSE `end` event when the socket still takes it. */
  function drop(reason: CloseReason, code?: string) {
    if (closed) return;
    if (blockedSince === null && code) raw.write(`event: end\ndata: ${JSON.stringify({ code })}\n\n`);
    close(reason);
    if (blockedSince === null) raw.end();
    else raw.destroy();
  }

  const recheck = async () => {
    checking = true;
    try {
      await authenticate(token);
      nextCheck = Math.min(now() + AUTH_RECHECK_MS, expiresAt);
    } catch (error) {
      if (error instanceof AppError && error.status === 401) {
        drop('auth', error.code);
      } else {
        // Fail closed: access that cannot be confirmed is not kept open.
        options.onCheckFailed(error);
        drop('auth', 'INTERNAL');
      }
    } finally {
      checking = false;
    }
  };

  const beat = setInterval(() => {
    if (closed) return;
    const at = now();
    if (blockedSince !== null && at - blockedSince >= STALL_MS) return drop('stalled');
    if (!checking && at >= nextCheck) void recheck();
    if (blockedSince === null && at - lastWrite >= HEARTBEAT_MS) write(': heartbeat\n\n');
  }, TICK_MS);
  beat.unref();

  raw.on('close', () => close('client'));

  return {
    /** Sends values (or keeps their latest while the consumer is behind). */
    send(values: readonly LiveValue[]) {
      if (closed) return;
      if (blockedSince === null) event(values);
      else coalesce(values);
    },
    /** Writes the prelude (retry hint) and the snapshot. */
    start(snapshot: readonly LiveValue[]) {
      write('retry: 5000\n\n');
      event(snapshot);
    },
    /** The server is shutting down. */
    end() {
      drop('server');
    },
  };
}

/** Open streams per user, to refuse the one beyond MAX_LIVE_PER_USER. */
export function liveQuota(max = MAX_LIVE_PER_USER) {
  const open = new Map<number, number>();
  return {
    /** Counts a new stream of `userId`, or throws 429 when they hold `max` already. */
    take(userId: number): () => void {
      const count = open.get(userId) ?? 0;
      if (count >= max) {
        throw new AppError('TOO_MANY_STREAMS', 429, { max }, { message: 'query.tooManyStreams' });
      }
      open.set(userId, count + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (open.get(userId) ?? 1) - 1;
        if (left > 0) open.set(userId, left);
        else open.delete(userId);
      };
    },
  };
}
