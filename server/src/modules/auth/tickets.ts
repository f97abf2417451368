import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/index.ts';

/** How long a stream ticket may wait for its stream (POST /api/query/live/ticket). */
export const STREAM_TICKET_TTL_MS = 30_000;

export interface StreamTickets {
  /** A ticket standing for `accessToken` until it is used once or STREAM_TICKET_TTL_MS pass. */
  issue(accessToken: string): Promise<{ ticket: string; expiresIn: number }>;
  /** The access token a ticket stands for, once: unknown, used or expired tickets answer null. */
  redeem(ticket: string): Promise<string | null>;
}

const hashOf = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/**
 * Short-lived, single-use tickets for the live stream: EventSource cannot send headers, and an
 * access token in a URL ends up in proxies' logs and the browser's history for its whole lifetime.
 * The ticket is random (not derived from the token) and kept in the database, by its hash, so the
 * replica that opens the stream need not be the one that issued it (docs/cluster.md); the stream
 * keeps re-checking the token it stands for, so it still ends when that session does.
 */
export function createStreamTickets(db: Kysely<DB>, now: () => number): StreamTickets {
  return {
    async issue(accessToken) {
      const at = now();
      // Expired tickets go with the next issue: the table holds ~30 s of tickets, no sweeper needed.
      await db.deleteFrom('stream_tickets').where('expires_at', '<=', new Date(at).toISOString()).execute();
      const ticket = randomBytes(24).toString('base64url');
      await db
        .insertInto('stream_tickets')
        .values({
          ticket_hash: hashOf(ticket),
          access_token: accessToken,
          expires_at: new Date(at + STREAM_TICKET_TTL_MS).toISOString(),
        })
        .execute();
      return { ticket, expiresIn: STREAM_TICKET_TTL_MS / 1000 };
    },
    async redeem(ticket) {
      // One statement takes the row: of two replicas redeeming the same ticket, one gets it.
      const row = await db
        .deleteFrom('stream_tickets')
        .where('ticket_hash', '=', hashOf(ticket))
        .returning(['access_token', 'expires_at'])
        .executeTakeFirst();
      if (!row) return null;
      return Date.parse(row.expires_at) > now() ? row.access_token : null;
    },
  };
}
