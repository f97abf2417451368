import { randomBytes } from 'node:crypto';
import type { LiveValue } from '@kilowatch/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchOf, createMemoryLive } from '../live/index.ts';
import type { Cluster } from './cluster.ts';
import { chunk, clusterLive } from './live.ts';
import { createPostgresCluster, MAX_PAYLOAD, PARTITIONS } from './postgres.ts';

const base = process.env.TEST_DATABASE_URL;
const log = { info: () => undefined, warn: () => undefined };

const waitFor = async (check: () => boolean, ms: number): Promise<number> => {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
};

describe('chunk', () => {
  it('packs values into payloads under the limit and leaves out one too large for any', () => {
    const values: LiveValue[] = Array.from({ length: 500 }, (_, i) => ({
      thingId: i,
      metric: 'P',
      ts: 1_764_000_000_000 + i,
      value: i / 3,
    }));
    values.push({ thingId: 1, metric: 'note', ts: 1, value: 'x'.repeat(9000) });
    const { payloads, dropped } = chunk([batchOf(values)], 2000);
    expect(dropped).toBe(1);
    expect(payloads.every((p) => p.length <= 2000)).toBe(true);
    const back = payloads.flatMap((p) => JSON.parse(p) as unknown[]);
    expect(back).toHaveLength(500);
    expect(back[499]).toEqual([499, 'P', 1_764_000_000_499, 499 / 3]);
  });
});

describe.skipIf(!base)('replicas on PostgreSQL', () => {
  const schema = `kw_cluster_${randomBytes(6).toString('hex')}`;
  let url: string;
  const started: Cluster[] = [];
  const admin = () => new pg.Client({ connectionString: base });

  beforeAll(async () => {
    const c = admin();
    await c.connect();
    await c.query(`create schema ${schema}`);
    await c.end();
    const parsed = new URL(base as string);
    parsed.searchParams.set('options', `-c search_path=${schema}`);
    url = parsed.toString();
  });
  afterAll(async () => {
    for (const c of started) await c.close();
    const c = admin();
    await c.connect();
    await c.query(`drop schema ${schema} cascade`);
    await c.end();
  });

  const replica = async (roundMs = 200): Promise<Cluster> => {
    const c = createPostgresCluster({ url, log, roundMs });
    started.push(c);
    await c.start();
    return c;
  };
  const owned = (c: Cluster) =>
    Array.from({ length: PARTITIONS }, (_, p) => p).filter((p) => c.ownsMonitor(p));

  it('tells the other replicas, not itself, and not another installation on the same server', async () => {
    const [a, b] = [await replica(), await replica()];
    const other = new URL(url);
    other.searchParams.set('options', '-c search_path=public');
    const stranger = createPostgresCluster({ url: other.toString(), log });
    started.push(stranger);
    await stranger.start();
    const heard = { a: [] as string[], b: [] as string[], stranger: [] as string[] };
    a.subscribe('catalog', (p) => heard.a.push(p));
    b.subscribe('catalog', (p) => heard.b.push(p));
    stranger.subscribe('catalog', (p) => heard.stranger.push(p));
    a.broadcast('catalog', 'changed');
    await waitFor(() => heard.b.length > 0, 1000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard).toEqual({ a: [], b: ['changed'], stranger: [] });
  });

  it('brings values ingested on one replica to the hub of another within a second, in order', async () => {
    const [a, b] = [await replica(), await replica()];
    const liveA = clusterLive(
      createMemoryLive(() => undefined),
      a,
      { maxPayload: MAX_PAYLOAD, log },
    );
    const liveB = clusterLive(
      createMemoryLive(() => undefined),
      b,
      { maxPayload: MAX_PAYLOAD, log },
    );
    const seen: LiveValue[] = [];
    liveB.subscribe((batch) => seen.push(...batch.values()));
    const sent = Array.from({ length: 2000 }, (_, i) => ({
      thingId: i % 50,
      metric: 'P',
      ts: 1000 + i,
      value: i,
    }));
    const at = Date.now();
    for (let i = 0; i < sent.length; i += 100) liveA.publish(sent.slice(i, i + 100));
    await waitFor(() => seen.length === sent.length, 1000);
    expect(Date.now() - at).toBeLessThan(1000);
    expect(seen).toEqual(sent);
    expect(liveB.latest({ thingId: 49, metric: 'P' })?.value).toBe(1999);
  });

  it('spreads the alarm partitions over the replicas and hands a dead one’s to the others', async () => {
    // A schema of its own: the replicas of the tests above still count in this one's.
    const alone = `${schema}_leases`;
    // Another installation on the same server, whose replica must not feel the kill below.
    const aside = `${schema}_aside`;
    const c = admin();
    await c.connect();
    await c.query(`create schema ${alone}`);
    await c.query(`create schema ${aside}`);
    const inSchema = (name: string) => {
      const own = new URL(url);
      own.searchParams.set('options', `-c search_path=${name}`);
      return own.toString();
    };
    try {
      const make = async () => {
        const r = createPostgresCluster({ url: inSchema(alone), log, roundMs: 200 });
        await r.start();
        return r;
      };
      const bystander = createPostgresCluster({ url: inSchema(aside), log, roundMs: 200 });
      await bystander.start();
      await waitFor(() => owned(bystander).length === PARTITIONS, 10_000);
      const replicas = [await make(), await make(), await make()];
      const changes = [0, 0, 0];
      for (const [i, r] of replicas.entries()) {
        r.onOwnershipChange(async () => {
          changes[i] = (changes[i] ?? 0) + 1;
        });
      }
      const split = () => replicas.map((r) => owned(r).length);
      await waitFor(
        () => split().every((n) => n >= 20) && split().reduce((x, y) => x + y) === PARTITIONS,
        10_000,
      );
      // No partition is held twice.
      const all = replicas.flatMap(owned);
      expect(new Set(all).size).toBe(PARTITIONS);
      changes.fill(0);

      // The first replica's session dies as with kill -9: its locks go with it. Only this
      // installation's lock class is looked at: replicas of other schemas (the suites running
      // alongside on the same server) hold the same partition numbers and must live on.
      await c.query(
        `select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory'
         and classid = (hashtext('kilowatch partitions ' || $1::text))::oid and objid = $2`,
        [alone, owned(replicas[0] as Cluster)[0]],
      );
      const took = await waitFor(
        () => owned(replicas[1] as Cluster).length + owned(replicas[2] as Cluster).length === PARTITIONS,
        15_000,
      );
      expect(took).toBeLessThan(15_000);
      expect(owned(replicas[0] as Cluster)).toEqual([]);
      // The dead session's replica was told, so its runner drops the monitors it no longer owns.
      expect(changes[0]).toBeGreaterThan(0);
      // The file's other installation, alone in its schema, kept every partition.
      expect(owned(bystander)).toHaveLength(PARTITIONS);
      for (const r of [...replicas, bystander]) await r.close();
    } finally {
      await c.query(`drop schema ${alone} cascade`);
      await c.query(`drop schema ${aside} cascade`);
      await c.end();
    }
  });
});
