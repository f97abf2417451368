import type { NotifyEvent } from '@kilowatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/index.ts';
import { type AllowList, EMPTY_ALLOW_LIST } from '../../../shared/outbound-address.ts';
import { type FailureKey, failureOf, sendEmail, sendWebhook } from './channels.ts';
import {
  type ActionFacts,
  type Backoff,
  DEFAULT_BACKOFF,
  type NotifyMessage,
  nextAttemptAt,
  renderMessage,
  routeTakes,
} from './message.ts';
import * as repo from './repository.ts';

/** How a message leaves: the real channels, or a test's doubles. */
interface Senders {
  webhook: typeof sendWebhook;
  email: typeof sendEmail;
}

export interface NotifierDeps {
  db: Kysely<DB>;
  now: () => number;
  /** The plant's zone: times in messages are written in it. */
  timeZone: string;
  log: { error(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
  backoff?: Backoff;
  /** Notifications sent at once at most. */
  concurrency?: number;
  /** How often the outbox is looked at for due notifications, ms. */
  pollMs?: number;
  senders?: Senders;
  /**
   * The internal hosts webhooks may reach (the `webhookAllowedHosts` system setting), read at each
   * send so a change applies at once; none when left out.
   */
  allowList?: () => Promise<AllowList>;
}

/** How a test send went: sent, or one of the fixed failures (channels.ts failureOf). */
export type TestOutcome =
  | { ok: true }
  | { ok: false; key: FailureKey; params: Record<string, string | number> };

const iso = (ms: number) => new Date(ms).toISOString();
/** Sent and given-up notifications are kept this long for the outbox list, then forgotten. */
const OUTBOX_KEEP_MS = 30 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 3_600_000;
/**
 * How long a claim holds a notification for the notifier sending it. The claim is renewed every
 * CLAIM_RENEW_MS while the send goes on, so a slow send (webhook timeouts are capped in the
 * contract, SMTP at 15 s) is never taken by a second notifier, and one that died while sending
 * frees its rows within this: another replica sends them about half a minute after the death.
 */
export const CLAIM_LEASE_MS = 30_000;
/** Renewing at a third of the lease leaves 20 s for a stalled event loop before a claim can lapse. */
const CLAIM_RENEW_MS = 10_000;
/** A notification's delivery key: its outbox row, so every try of it, on any replica, says the same. */
const deliveryKey = (item: repo.OutboxRecord) => `kilowatch-alarm-${item.alarmId}-${item.event}-${item.id}`;
const reason = (error: unknown) =>
  error instanceof Error
    ? error.cause instanceof Error
      ? `${error.message}: ${error.cause.message}`
      : error.message
    : String(error);

/**
 * Alarm notifications. The hooks (`alarmWritten` for the engine's raises and returns, `alarmActed`
 * for operators' acknowledgements) only queue: they return at once and write the outbox on a queue
 * of their own, so neither ingest nor the engine waits on a webhook or a mail server. A worker sends
 * what is due with bounded concurrency and retries failures with exponential backoff on the injected
 * clock; the outbox is in the database, so a restart resumes where the last run stopped.
 */
export function createNotifier(deps: NotifierDeps) {
  const { db, now, log } = deps;
  const backoff = deps.backoff ?? DEFAULT_BACKOFF;
  const concurrency = deps.concurrency ?? 4;
  const senders = deps.senders ?? { webhook: sendWebhook, email: sendEmail };
  const allowList = deps.allowList ?? (async () => EMPTY_ALLOW_LIST);
  let queued: Promise<void> = Promise.resolve();
  const inFlight = new Map<number, Promise<void>>();
  /** The claims of the sends under way: outbox row → the lease this notifier set on it. */
  const leases = new Map<number, string>();
  let pumping: Promise<void> | undefined;
  let lookAgain = false;
  let timer: NodeJS.Timeout | undefined;
  let pruneTimer: NodeJS.Timeout | undefined;
  let renewTimer: NodeJS.Timeout | undefined;
  let stopped = false;
  /** Aborted by stop(): sends under way give up at once and stay pending for the next start. */
  let stopping = new AbortController();

  /** Renders the event for every route that takes it and writes them to the outbox. */
  async function record(
    into: Kysely<DB>,
    alarmId: number,
    event: NotifyEvent,
    action: ActionFacts | null,
  ): Promise<void> {
    const facts = await repo.alarmFacts(into, alarmId);
    if (!facts) return;
    const takers = (await repo.routes(into)).filter((r) => routeTakes(r, facts.severity, event));
    if (takers.length === 0) return;
    const message = renderMessage(event, facts, action, deps.timeZone);
    await repo.enqueue(
      into,
      takers.map((r) => ({ routeId: r.id, alarmId, message })),
      iso(now()),
    );
  }

  function queue(alarmId: number, event: NotifyEvent, action: ActionFacts | null): void {
    queued = queued
      .then(() => record(db, alarmId, event, action))
      .then(pump)
      .catch((error: unknown) => log.error({ err: error, alarmId, event }, 'alarm notification not queued'));
  }

  /**
   * Sends through one route; throws why it failed. `key` names the delivery (an outbox row), the
   * same on every try of it; a test send has none.
   */
  async function deliver(route: repo.RouteRecord, message: NotifyMessage, key?: string): Promise<void> {
    if (route.channel === 'webhook') {
      await senders.webhook(
        { url: route.url, secret: route.secret, timeoutMs: route.timeoutMs },
        message,
        await allowList(),
        stopping.signal,
        key,
      );
    } else {
      await senders.email(await repo.smtp(db), route.recipients, message, stopping.signal, key);
    }
  }

  async function attempt(item: repo.OutboxRecord): Promise<void> {
    const attempts = item.attempts + 1;
    try {
      const route = await repo.findRoute(db, item.routeId);
      // A deleted route takes its outbox rows with it; one disabled since is not sent to.
      if (!route) return;
      if (!route.enabled) throw new Error('route disabled');
      await deliver(route, item.message, deliveryKey(item));
      await repo.markSent(db, item.id, attempts, iso(now()));
    } catch (error) {
      // Cut short by a shutdown: not the receiver's failure; the row is due again at the next start.
      if (stopping.signal.aborted) {
        await repo.release(db, item.id, iso(now()));
        return;
      }
      const next = nextAttemptAt(attempts, now(), backoff);
      const why = reason(error);
      await repo.markFailed(db, item.id, attempts, why, next === null ? null : iso(next));
      if (next === null) {
        log.warn(
          { outboxId: item.id, alarmId: item.alarmId, attempts, error: why },
          'alarm notification given up',
        );
      }
    }
  }

  /** Starts what is due, up to the concurrency bound; each try looks again when it ends. */
  async function startDue(): Promise<void> {
    const room = concurrency - inFlight.size;
    if (room <= 0 || stopped) return;
    const at = now();
    const leaseUntil = iso(at + CLAIM_LEASE_MS);
    const items = await repo.claimDue(db, iso(at), leaseUntil, room, [...inFlight.keys()]);
    // Stopped while reading: stop() does not wait for the read, so nothing may start after it.
    if (stopped) return;
    for (const item of items) {
      leases.set(item.id, leaseUntil);
      const running = attempt(item)
        .catch((error: unknown) =>
          log.error({ err: error, outboxId: item.id }, 'alarm notification state not saved'),
        )
        .finally(() => {
          inFlight.delete(item.id);
          leases.delete(item.id);
          pump();
        });
      inFlight.set(item.id, running);
    }
  }

  /** Looks at the outbox now; a look asked for while one runs is made once it ends. */
  function pump(): void {
    if (stopped) return;
    if (pumping) {
      lookAgain = true;
      return;
    }
    pumping = startDue()
      .catch((error: unknown) => log.error({ err: error }, 'alarm outbox not read'))
      .finally(() => {
        pumping = undefined;
        if (lookAgain) {
          lookAgain = false;
          pump();
        }
      });
  }

  /** Keeps the claims of the sends under way; a claim found taken means this notifier stalled past it. */
  async function renew(): Promise<void> {
    const until = iso(now() + CLAIM_LEASE_MS);
    for (const [id, held] of leases) {
      const kept = await repo.renewClaim(db, id, held, until);
      if (!leases.has(id)) continue;
      if (kept) leases.set(id, until);
      else {
        leases.delete(id);
        log.warn(
          { outboxId: id },
          'alarm notification claim lapsed while sending; another replica may send it too',
        );
      }
    }
  }

  function prune(): Promise<void> {
    return repo
      .prune(db, iso(now() - OUTBOX_KEEP_MS))
      .then(() => undefined)
      .catch((error: unknown) => log.error({ err: error }, 'alarm outbox not pruned'));
  }

  return {
    /** The engine's hook (AlarmRunnerDeps.onWritten): a raise or a return was written. */
    alarmWritten(t: { type: 'raise' | 'return'; alarmId: number; quiet: boolean }): void {
      if (!t.quiet) queue(t.alarmId, t.type, null);
    },
    /**
     * The engine's hook inside the transaction that wrote the raise or return (the runner's
     * `recordNotifications`): the outbox rows commit with the alarm or not at all, so a replica
     * killed between the two loses no notification (docs/cluster.md). Sent at the next pump.
     */
    recordWritten(
      tx: Kysely<DB>,
      t: { type: 'raise' | 'return'; alarmId: number; quiet: boolean },
    ): Promise<void> {
      return t.quiet ? Promise.resolve() : record(tx, t.alarmId, t.type, null);
    },
    /** Looks for due notifications now (after the engine's transaction committed). */
    wake(): void {
      pump();
    },
    /** The alarms service's hook: an operator acted on an alarm; only acknowledgements notify. */
    alarmActed(a: { alarmId: number; action: string; username: string; comment: string }): void {
      if (a.action !== 'acknowledge') return;
      queue(a.alarmId, 'acknowledge', { username: a.username, comment: a.comment, at: now() });
    },
    start(): void {
      stopped = false;
      if (stopping.signal.aborted) stopping = new AbortController();
      timer = setInterval(pump, deps.pollMs ?? 1000);
      timer.unref();
      pruneTimer = setInterval(() => void prune(), PRUNE_EVERY_MS);
      pruneTimer.unref();
      renewTimer = setInterval(
        () =>
          void renew().catch((error: unknown) =>
            log.error({ err: error }, 'alarm notification claims not renewed'),
          ),
        CLAIM_RENEW_MS,
      );
      renewTimer.unref();
      pump();
      void prune();
    },
    /**
     * Stops sending; waits for what is being queued and for the sends under way, cut short (unsent
     * rows stay pending). A read of the outbox in progress is not waited for: it starts nothing once
     * stopped, and a database going away under it must not hold the shutdown.
     */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      if (pruneTimer) clearInterval(pruneTimer);
      if (renewTimer) clearInterval(renewTimer);
      stopping.abort();
      await queued;
      await Promise.all(inFlight.values());
    },
    /** Resolves once every hook call so far has reached the outbox (tests). */
    async flush(): Promise<void> {
      let current: Promise<void>;
      do {
        current = queued;
        await current;
      } while (current !== queued);
    },
    /** Sends what is due now and waits for those tries (tests drive the clock). */
    async runDue(): Promise<void> {
      pump();
      do {
        await pumping;
        await Promise.all(inFlight.values());
      } while (pumping || inFlight.size > 0);
    },
    /** Notifications waiting in the outbox (due or backing off) and the age of the oldest, s (/metrics). */
    async backlog(): Promise<{ pending: number; oldestSeconds: number }> {
      const { pending, oldest } = await repo.backlog(db);
      return {
        pending,
        oldestSeconds: oldest === null ? 0 : Math.max(0, (now() - Date.parse(oldest)) / 1000),
      };
    },
    /** Forgets old sent and given-up notifications now (start() does it hourly). */
    prune,
    /** Renews the claims of the sends under way now (start() does it every 10 s). */
    renewClaims: renew,
    /** Sends a test message through a route at once, outside the outbox. */
    async test(route: repo.RouteRecord): Promise<TestOutcome> {
      const at = now();
      const message = renderMessage(
        'raise',
        {
          id: 0,
          ruleName: '测试通知',
          thingName: '测试设备',
          resourceType: 'thing',
          resourceName: '测试设备',
          severity: route.severities[0] ?? 'warning',
          message: '这是一条测试通知，无需处理',
          value: '0',
          alarmAt: at,
          returnedAt: null,
        },
        null,
        deps.timeZone,
      );
      try {
        await deliver(route, message);
        return { ok: true };
      } catch (error) {
        return { ok: false, ...failureOf(error, route.channel) };
      }
    },
  };
}

export type Notifier = ReturnType<typeof createNotifier>;
