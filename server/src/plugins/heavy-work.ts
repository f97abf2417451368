import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * An export, import, statistics read or backtest (docs/robustness.md#heavy-requests): it runs
     * only while a slot of the caller's and of the server's is free, else answers 429 BUSY.
     */
    heavy?: boolean;
  }
  interface FastifyInstance {
    /** The slots of heavy requests (see `heavyWork`), one gate for the whole server. */
    heavy: HeavyGate;
  }
}

/** Heavy requests one user may have running at once. */
const HEAVY_PER_USER = 2;
/** Heavy requests the server runs at once, whoever asks: two cores, and the loop stays free. */
const HEAVY_GLOBAL = 4;
/** What a refused caller is told to wait (Retry-After, seconds). */
const HEAVY_RETRY_AFTER_S = 5;

export interface HeavyGate {
  /** Takes a slot for `userId`, or throws 429 BUSY; the answer gives it back (once). */
  enter(userId: number): () => void;
  /** Heavy requests running now (tests, the bench). */
  running(): number;
}

export function createHeavyGate(limits = { perUser: HEAVY_PER_USER, global: HEAVY_GLOBAL }): HeavyGate {
  const byUser = new Map<number, number>();
  let running = 0;
  const busy = (message: 'heavy.busyUser' | 'heavy.busyServer', max: number) =>
    new AppError(
      'BUSY',
      429,
      { max, seconds: HEAVY_RETRY_AFTER_S },
      { message, headers: { 'retry-after': String(HEAVY_RETRY_AFTER_S) } },
    );
  return {
    enter(userId) {
      const mine = byUser.get(userId) ?? 0;
      if (mine >= limits.perUser) throw busy('heavy.busyUser', limits.perUser);
      if (running >= limits.global) throw busy('heavy.busyServer', limits.global);
      byUser.set(userId, mine + 1);
      running++;
      let left = false;
      return () => {
        if (left) return;
        left = true;
        running--;
        const now = (byUser.get(userId) ?? 1) - 1;
        if (now === 0) byUser.delete(userId);
        else byUser.set(userId, now);
      };
    },
    running: () => running,
  };
}

/**
 * Admits the routes marked `config: { heavy: true }` in `api` through one gate, after
 * authentication (the slot is the caller's). The slot is held until the answer is finished or
 * the connection is gone, so a streamed export counts for as long as it is written.
 */
export function heavyWork(api: FastifyInstance, gate: HeavyGate): void {
  api.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.routeOptions.config.heavy || !request.user) return;
    const leave = gate.enter(request.user.id);
    reply.raw.once('finish', leave);
    reply.raw.once('close', leave);
  });
}
