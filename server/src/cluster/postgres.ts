import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Cluster, ClusterListener, ClusterTopic } from './cluster.ts';

/**
 * Alarm monitors are spread over this many partitions (monitor id modulo), each an advisory lock.
 * Enough that three to a dozen replicas share them evenly; few enough that a round is cheap.
 */
export const PARTITIONS = 64;
/** How often a replica counts the live replicas and takes or gives up partitions. */
const ROUND_MS = 2_000;
/** NOTIFY refuses payloads of 8000 bytes or more; the sender id and topic take the rest. */
export const MAX_PAYLOAD = 7_900;

export interface PostgresClusterOptions {
  /** DATABASE_URL (its search_path, if any, names the installation's schema). */
  url: string;
  log: { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
  roundMs?: number;
}

/**
 * Replicas sharing one PostgreSQL database (docs/cluster.md). One connection of its own per
 * replica LISTENs on the installation's channel and holds the advisory locks of the alarm
 * partitions this replica owns: when the process dies, PostgreSQL ends its session and the locks
 * are free at once for the next round of another replica. Every round each replica counts the
 * replicas (their connections' application_name) and holds its fair share, ceil(partitions /
 * replicas): it gives up what is beyond and takes free ones up to it.
 */
export function createPostgresCluster(options: PostgresClusterOptions): Cluster {
  const { log } = options;
  const id = randomUUID().slice(0, 8);
  const listeners = new Map<ClusterTopic, Set<ClusterListener>>();
  const owned = new Set<number>();
  const ownershipListeners: (() => Promise<void>)[] = [];
  let client: pg.Client | undefined;
  /** Set once connected: the installation's channel, lock class and connection name prefix. */
  let names: { channel: string; lockClass: number; appPrefix: string } | undefined;
  let round: NodeJS.Timeout | undefined;
  let rounding: Promise<void> = Promise.resolve();
  let closed = false;
  let connecting: Promise<void> | undefined;
  /** The connection's statements, one after the other (pg refuses to queue them itself in 9.0). */
  let chain: Promise<unknown> = Promise.resolve();
  function run<R extends pg.QueryResultRow>(c: pg.Client, text: string, values: unknown[] = []) {
    const result = chain.then(() => c.query<R>(text, values));
    chain = result.catch(() => undefined);
    return result;
  }

  const tellOwnership = async () => {
    for (const fn of ownershipListeners) await fn();
  };

  function deliver(payload: string): void {
    // sender|topic|body; our own notifications come back too and are not news here.
    const first = payload.indexOf('|');
    const second = payload.indexOf('|', first + 1);
    if (first < 0 || second < 0 || payload.slice(0, first) === id) return;
    const topic = payload.slice(first + 1, second) as ClusterTopic;
    const body = payload.slice(second + 1);
    for (const fn of listeners.get(topic) ?? []) {
      try {
        fn(body);
      } catch (error) {
        log.warn({ err: error, topic }, 'cluster listener failed');
      }
    }
  }

  /** Anything may have changed while nobody listened: every listener hears ''. */
  function resync(): void {
    for (const [topic, set] of listeners) {
      if (topic === 'live') continue;
      for (const fn of set) fn('');
    }
  }

  async function connect(): Promise<void> {
    const c = new pg.Client({ connectionString: options.url, application_name: 'kilowatch' });
    c.on('error', (error) => log.warn({ err: error }, 'cluster connection failed'));
    await c.connect();
    // The installation is the database and schema: tests and side-by-side installs share a server.
    const { rows } = await c.query<{ key: string; lock: number }>(
      `select md5(current_database() || '.' || current_schema()) as key,
              hashtext('kilowatch partitions ' || current_schema()) as lock`,
    );
    const key = (rows[0]?.key ?? '').slice(0, 12);
    names = { channel: `kilowatch_${key}`, lockClass: rows[0]?.lock ?? 0, appPrefix: `kilowatch ${key} ` };
    await c.query(`set application_name = '${names.appPrefix}${id}'`);
    await c.query(`listen ${names.channel}`);
    c.on('notification', (message) => {
      if (message.payload) deliver(message.payload);
    });
    c.on('end', () => {
      if (client !== c) return;
      client = undefined;
      // The session's locks went with it: another replica may take them now.
      owned.clear();
      void tellOwnership();
      if (!closed) {
        log.warn({}, 'cluster connection lost; reconnecting');
        setTimeout(() => void reconnect(), 1000).unref();
      }
    });
    client = c;
  }

  async function reconnect(): Promise<void> {
    if (closed || client || connecting) return;
    connecting = connect()
      .then(() => resync())
      .catch((error: unknown) => {
        log.warn({ err: error }, 'cluster reconnect failed');
        setTimeout(() => void reconnect(), 1000).unref();
      })
      .finally(() => {
        connecting = undefined;
      });
    await connecting;
  }

  async function balance(): Promise<void> {
    const c = client;
    if (!c || !names) return;
    const { rows } = await run<{ n: string }>(
      c,
      'select count(*) as n from pg_stat_activity where datname = current_database() and application_name like $1',
      [`${names.appPrefix}%`],
    );
    const replicas = Math.max(1, Number(rows[0]?.n ?? 1));
    const target = Math.ceil(PARTITIONS / replicas);
    let changed = false;
    if (owned.size > target) {
      const giving = [...owned].sort((a, b) => b - a).slice(0, owned.size - target);
      for (const p of giving) owned.delete(p);
      // The watches of those partitions are dropped and their writes flushed before the locks go.
      await tellOwnership();
      for (const p of giving) await run(c, 'select pg_advisory_unlock($1, $2)', [names.lockClass, p]);
      log.info({ gave: giving.length, owned: owned.size, replicas }, 'alarm partitions given up');
      return;
    }
    if (owned.size < target) {
      // Start at a random place, so replicas starting together do not all try the same ones first.
      const offset = Math.floor(Math.random() * PARTITIONS);
      for (let i = 0; i < PARTITIONS && owned.size < target; i++) {
        const p = (offset + i) % PARTITIONS;
        if (owned.has(p)) continue;
        const got = await run<{ ok: boolean }>(c, 'select pg_try_advisory_lock($1, $2) as ok', [
          names.lockClass,
          p,
        ]);
        if (got.rows[0]?.ok) {
          owned.add(p);
          changed = true;
        }
      }
    }
    if (changed) {
      log.info({ owned: owned.size, replicas }, 'alarm partitions taken');
      await tellOwnership();
    }
  }

  const runRound = () => {
    rounding = rounding
      .then(balance)
      .catch((error: unknown) => log.warn({ err: error }, 'alarm partition round failed'));
    return rounding;
  };

  return {
    mode: 'replica',
    broadcast(topic, payload) {
      const c = client;
      if (!c || !names) return;
      run(c, 'select pg_notify($1, $2)', [names.channel, `${id}|${topic}|${payload}`]).catch(
        (error: unknown) => log.warn({ err: error, topic }, 'cluster broadcast failed'),
      );
    },
    subscribe(topic, fn) {
      let set = listeners.get(topic);
      if (!set) {
        set = new Set();
        listeners.set(topic, set);
      }
      set.add(fn);
      return () => {
        set.delete(fn);
      };
    },
    ownsMonitor: (monitorId) => owned.has(monitorId % PARTITIONS),
    onOwnershipChange(fn) {
      ownershipListeners.push(fn);
    },
    async start() {
      await connect();
      await runRound();
      round = setInterval(() => void runRound(), options.roundMs ?? ROUND_MS);
      round.unref();
    },
    async close() {
      closed = true;
      if (round) clearInterval(round);
      await rounding;
      const c = client;
      client = undefined;
      owned.clear();
      await c?.end();
    },
  };
}
