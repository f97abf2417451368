import { randomBytes } from 'node:crypto';

/** How long a stream ticket may wait for its stream (POST /api/query/live/ticket). */
export const STREAM_TICKET_TTL_MS = 30_000;
/** Tickets waiting at once, all users together: beyond, the oldest is dropped (memory stays bounded). */
const MAX_WAITING = 10_000;

export interface StreamTickets {
  /** A ticket standing for `accessToken` until it is used once or STREAM_TICKET_TTL_MS pass. */
  issue(accessToken: string): { ticket: string; expiresIn: number };
  /** The access token a ticket stands for, once: unknown, used or expired tickets answer null. */
  redeem(ticket: string): string | null;
}

/**
 * Short-lived, single-use tickets for the live stream: EventSource cannot send headers, and an
 * access token in a URL ends up in proxies' logs and the browser's history for its whole lifetime.
 * The ticket is random (not derived from the token) and kept in this process only; the stream
 * keeps re-checking the token it stands for, so it still ends when that session does.
 */
export function createStreamTickets(now: () => number): StreamTickets {
  // Insertion order is expiry order (one lifetime for all), so pruning stops at the first live one.
  const waiting = new Map<string, { accessToken: string; expiresAt: number }>();
  const prune = () => {
    const at = now();
    for (const [ticket, entry] of waiting) {
      if (entry.expiresAt > at && waiting.size <= MAX_WAITING) break;
      waiting.delete(ticket);
    }
  };
  return {
    issue(accessToken) {
      prune();
      const ticket = randomBytes(24).toString('base64url');
      waiting.set(ticket, { accessToken, expiresAt: now() + STREAM_TICKET_TTL_MS });
      return { ticket, expiresIn: STREAM_TICKET_TTL_MS / 1000 };
    },
    redeem(ticket) {
      const entry = waiting.get(ticket);
      if (!entry) return null;
      waiting.delete(ticket);
      return entry.expiresAt > now() ? entry.accessToken : null;
    },
  };
}
