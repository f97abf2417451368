/**
 * How many live values per second PostgreSQL LISTEN/NOTIFY carries between replicas (issue 23,
 * docs/cluster.md). One replica publishes values through the cluster's live hub
 * (server/src/cluster/live.ts: 50 ms batches, compact arrays, ≤ 7,900 characters per NOTIFY) at a
 * fixed offered rate in batches of 500 (what ingest hands the hub); `--receivers` others each count
 * what reaches them and how late (the value's ts is its send time). Each rate runs `--seconds`
 * after a warm-up, `--runs` times; the result per rate is the median of the runs' delivered rates
 * and of their p99 delays. A rate is carried when every receiver got every value with p99 < 1 s.
 *
 *   TEST_DATABASE_URL=postgres://… npx tsx bench/live-notify-bench.ts [--receivers 2] [--seconds 5]
 *     [--runs 3] [--rates 20000,50000,100000,200000,400000]
 */
import { randomBytes } from 'node:crypto';
import type { LiveValue } from '@kilowatch/contract';
import pg from 'pg';
import { clusterLive } from '../server/src/cluster/live.ts';
import { createPostgresCluster, MAX_PAYLOAD } from '../server/src/cluster/postgres.ts';
import { createMemoryLive } from '../server/src/live/index.ts';
import { fmt, log, machine, median, numArg, quantile, strArg } from './harness.ts';

const base = process.env.TEST_DATABASE_URL;
if (!base) throw new Error('TEST_DATABASE_URL names the PostgreSQL server to measure');
const receivers = numArg('receivers', 2);
const seconds = numArg('seconds', 5);
const runs = numArg('runs', 3);
const rates = strArg('rates', '20000,50000,100000,200000,400000').split(',').map(Number);
const quiet = { info: () => undefined, warn: () => undefined };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const schema = `kw_bench_${randomBytes(6).toString('hex')}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`create schema ${schema}`);
const url = new URL(base);
url.searchParams.set('options', `-c search_path=${schema}`);

log(machine());
log(`${receivers} receivers, ${seconds} s per run, ${runs} runs per rate`);
try {
  const sender = createPostgresCluster({ url: url.toString(), log: quiet });
  await sender.start();
  const hub = clusterLive(
    createMemoryLive(() => undefined),
    sender,
    { maxPayload: MAX_PAYLOAD, log: quiet },
  );
  const got: { count: number; delays: number[] }[] = [];
  const others = [];
  for (let i = 0; i < receivers; i++) {
    const c = createPostgresCluster({ url: url.toString(), log: quiet });
    await c.start();
    others.push(c);
    const tally = { count: 0, delays: [] as number[] };
    got.push(tally);
    clusterLive(
      createMemoryLive(() => undefined),
      c,
      { maxPayload: MAX_PAYLOAD, log: quiet },
    ).subscribe((batch) => {
      const now = Date.now();
      tally.count += batch.size;
      // One delay per batch is enough for the quantiles and costs nothing per value.
      tally.delays.push(now - (batch.values()[0] as LiveValue).ts);
    });
  }
  const rows: string[] = [];
  for (const rate of rates) {
    const delivered: number[] = [];
    const p99s: number[] = [];
    let complete = true;
    for (let run = 0; run < runs; run++) {
      for (const t of got) {
        t.count = 0;
        t.delays = [];
      }
      const batch = 500;
      const started = Date.now();
      let sent = 0;
      let thing = 0;
      while (Date.now() - started < seconds * 1000) {
        const now = Date.now();
        const values: LiveValue[] = [];
        for (let i = 0; i < batch; i++) {
          thing = (thing + 1) % 5000;
          values.push({ thingId: thing, metric: 'P', ts: now, value: Math.round(Math.random() * 1e5) / 100 });
        }
        hub.publish(values);
        sent += batch;
        const due = started + (sent / rate) * 1000;
        await sleep(Math.max(0, due - Date.now()));
      }
      const sendTime = (Date.now() - started) / 1000;
      // What is still queued drains for up to 5 s more; a rate that needs it is not carried.
      const deadline = Date.now() + 5000;
      while (got.some((t) => t.count < sent) && Date.now() < deadline) await sleep(20);
      const least = Math.min(...got.map((t) => t.count));
      delivered.push(least / sendTime);
      const p99 = Math.max(...got.map((t) => quantile(t.delays, 0.99)));
      p99s.push(p99);
      if (least < sent || p99 >= 1000) complete = false;
      // Let the queue empty before the next run.
      await sleep(1000);
    }
    rows.push(
      `| ${fmt(rate)} | ${fmt(median(delivered))} | ${fmt(median(p99s))} | ${complete ? 'yes' : 'no'} |`,
    );
    log(rows.at(-1));
  }
  log('\n| offered values/s | delivered to each receiver /s (median) | p99 delay ms (median) | carried |');
  log('|---|---|---|---|');
  for (const r of rows) log(r);
  await sender.close();
  for (const c of others) await c.close();
} finally {
  await admin.query(`drop schema ${schema} cascade`);
  await admin.end();
}
