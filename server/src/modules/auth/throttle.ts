import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/index.ts';

/** How one kind of counter slows its key down (docs/auth.md, "Throttling"). */
export interface ThrottlePolicy {
  /** Failures that cost nothing; after the next one the first delay applies. */
  free: number;
  /** The delay doubles from 1 s with every failure beyond `free`, up to this many seconds. */
  maxDelayS: number;
  /** The count is forgotten this long after its last failure. */
  memoryMs: number;
}

/** Per (source, username): a person mistyping is barely slowed, a guesser is held to 4 tries an hour. */
export const PAIR_POLICY: ThrottlePolicy = { free: 3, maxDelayS: 15 * 60, memoryMs: 24 * 3_600_000 };
/** Per source over every name: a spray from one address, with room for an office behind one NAT. */
export const SOURCE_POLICY: ThrottlePolicy = { free: 20, maxDelayS: 15 * 60, memoryMs: 3_600_000 };

/** Seconds to wait after the `failures`-th failure before the next attempt. */
export const delayAfter = (failures: number, { free, maxDelayS }: ThrottlePolicy): number =>
  failures <= free ? 0 : Math.min(2 ** (failures - free - 1), maxDelayS);

export interface ThrottleOptions {
  db: Kysely<DB>;
  /** Milliseconds since the epoch; injected so tests can let the delays pass. */
  now: () => number;
  pair?: ThrottlePolicy;
  source?: ThrottlePolicy;
}

/** What `begin` decided: go ahead (the attempt is already counted as a failure) or wait. */
export type Admission = { wait: 0 } | { wait: number };

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

interface Counter {
  key: string;
  policy: ThrottlePolicy;
}

const sourceKey = (source: string) => `s|${source}`;
// The source comes first: it never contains '|', a username may.
const pairKey = (source: string, username: string) => `u|${source}|${username.toLowerCase()}`;

/**
 * Slows password guessing without locking the owner out. Failures are counted per (source,
 * username) and per source, in the database so every replica sees the same counts. A source that
 * has not failed is never refused. An attempt is counted as a failure before the password is
 * checked and the count is taken back on success, so parallel requests cannot all slip through
 * before the first failure is recorded.
 */
export function createLoginThrottle({
  db,
  now,
  pair = PAIR_POLICY,
  source: sourcePolicy = SOURCE_POLICY,
}: ThrottleOptions) {
  const counters = (username: string, source: string): Counter[] => [
    { key: sourceKey(source), policy: sourcePolicy },
    { key: pairKey(source, username), policy: pair },
  ];

  /** Seconds until a counter's delay has passed; 0 when it has (or was forgotten). */
  const waitFor = (
    row: { failures: number; last_failure_at: string; forget_at: string } | undefined,
    policy: ThrottlePolicy,
    at: number,
  ): number => {
    if (!row || Date.parse(row.forget_at) <= at) return 0;
    const freeAt = Date.parse(row.last_failure_at) + delayAfter(row.failures, policy) * 1000;
    return freeAt > at ? Math.ceil((freeAt - at) / 1000) : 0;
  };

  return {
    /**
     * Admits an attempt or says how many seconds to wait. An admitted attempt is counted as a
     * failure at once; call `succeeded` when the password was right. A refused one counts nothing.
     */
    async begin(username: string, source: string): Promise<Admission> {
      const at = now();
      const keys = counters(username, source);
      const rows = await db
        .selectFrom('login_failures')
        .select(['key', 'failures', 'last_failure_at', 'forget_at'])
        .where(
          'key',
          'in',
          keys.map((c) => c.key),
        )
        .execute();
      const byKey = new Map(rows.map((row) => [row.key, row]));
      const wait = Math.max(...keys.map((c) => waitFor(byKey.get(c.key), c.policy, at)));
      if (wait > 0) return { wait };

      const iso = new Date(at).toISOString();
      // One statement, keys in a fixed order: concurrent attempts each add exactly one and cannot
      // deadlock on PostgreSQL; a forgotten count starts again from one.
      const counted = await db
        .insertInto('login_failures')
        .values(
          keys.map((c) => ({
            key: c.key,
            failures: 1,
            last_failure_at: iso,
            previous_failure_at: null,
            forget_at: new Date(at + c.policy.memoryMs).toISOString(),
          })),
        )
        .onConflict((oc) =>
          oc.column('key').doUpdateSet((eb) => ({
            failures: sql<number>`case when login_failures.forget_at <= ${iso} then 1 else login_failures.failures + 1 end`,
            previous_failure_at: eb.ref('login_failures.last_failure_at'),
            last_failure_at: eb.ref('excluded.last_failure_at'),
            forget_at: eb.ref('excluded.forget_at'),
          })),
        )
        .returning(['key', 'failures'])
        .execute();
      // Attempts that raced this one were counted too: past the free ones, only the first of them
      // (the one that found the count as read above) may go on.
      for (const c of keys) {
        const before = byKey.get(c.key);
        const expected = before && Date.parse(before.forget_at) > at ? before.failures + 1 : 1;
        const failures = counted.find((row) => row.key === c.key)?.failures ?? expected;
        if (failures > expected && delayAfter(failures - 1, c.policy) > 0) {
          return { wait: Math.max(1, delayAfter(failures - 1, c.policy)) };
        }
      }
      return { wait: 0 };
    },

    /**
     * The password was right: the name's count from this source is cleared, and the attempt is
     * taken back from the source's count (which a success does not clear: one valid account must
     * not reset a spray over other names).
     */
    async succeeded(username: string, source: string): Promise<void> {
      await db.deleteFrom('login_failures').where('key', '=', pairKey(source, username)).execute();
      await db
        .updateTable('login_failures')
        .set((eb) => ({
          failures: eb('failures', '-', 1),
          last_failure_at: eb.fn.coalesce('previous_failure_at', 'last_failure_at'),
        }))
        .where('key', '=', sourceKey(source))
        .where('failures', '>', 0)
        .execute();
    },

    /** Housekeeping after a failure: counts past their memory only take space. */
    async sweep(): Promise<void> {
      await db.deleteFrom('login_failures').where('forget_at', '<=', new Date(now()).toISOString()).execute();
    },
  };
}
