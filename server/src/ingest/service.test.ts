import { gzipSync } from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { PointBatch, TelemetryStore } from '../telemetry/index.ts';
import { type Parsed, type ParseJob, parseBody } from './parse.ts';
import type { ParsePool } from './parse-pool.ts';
import { createIngestService } from './service.ts';

const NOW = Date.UTC(2026, 10, 29, 12);
const device = { id: 7, identifier: 'M1', name: '1号表' };
const abilities = new Map([['P', { identifier: 'P', dataType: 'number' as const, enumOptions: null }]]);

/** A parse pool whose answers the test releases, in any order. */
function heldPool() {
  const held: (() => void)[] = [];
  const pool = {
    parse: (job: ParseJob) =>
      new Promise<Parsed>((resolve) => {
        held.push(() => resolve(parseBody(job)));
      }),
    close: async () => {},
  };
  return { pool: pool as unknown as ParsePool, held };
}

/** A store that records each batch's times in the order writes reach it. */
function recordingStore() {
  const writes: number[][] = [];
  const store = {
    writeBatch: (batch: PointBatch) => {
      writes.push([...batch.ts]);
      return Promise.resolve();
    },
  };
  return { store: store as unknown as TelemetryStore, writes };
}

const serviceWith = (pool: ParsePool, store: TelemetryStore) =>
  createIngestService({
    catalog: {
      thingByToken: async () => undefined,
      thingByIdentifier: async () => undefined,
      abilitiesOf: async () => abilities as never,
    },
    store,
    log: { warn: () => {}, error: () => {} } as unknown as FastifyBaseLogger,
    now: () => NOW,
    maxBatch: 1000,
    parsePool: pool,
  });

const body = (ts: number) =>
  gzipSync(
    Buffer.from(
      JSON.stringify([
        { ts, values: { P: 1 } },
        { ts: ts + 1000, values: { P: 2 } },
      ]),
    ),
  );

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ingest service', () => {
  it("writes a device's bodies in the order they arrived when a later one is parsed first", async () => {
    const { pool, held } = heldPool();
    const { store, writes } = recordingStore();
    const service = serviceWith(pool, store);
    const gz = { kind: 'json', gzip: true } as const;
    const first = service.acceptBody(device, body(NOW - 60_000), gz, 'mqtt');
    const second = service.acceptBody(device, body(NOW - 30_000), gz, 'mqtt');
    // Another device is not held back by this one's order.
    const other = service.acceptBody({ ...device, id: 8 }, body(NOW - 10_000), gz, 'mqtt');
    while (held.length < 3) await tick();
    held[2]?.();
    held[1]?.();
    await other;
    await tick();
    expect(writes).toEqual([[NOW - 10_000, NOW - 9000]]);
    held[0]?.();
    const results = await Promise.all([first, second]);
    expect(results.map((r) => r.kind === 'written' && r.result.accepted)).toEqual([2, 2]);
    expect(writes).toEqual([
      [NOW - 10_000, NOW - 9000],
      [NOW - 60_000, NOW - 59_000],
      [NOW - 30_000, NOW - 29_000],
    ]);
  });

  it('passes the turn on when a body cannot be read, so the next one is written', async () => {
    const { pool, held } = heldPool();
    const { store, writes } = recordingStore();
    const service = serviceWith(pool, store);
    const gz = { kind: 'json', gzip: true } as const;
    const bad = service.acceptBody(device, gzipSync(Buffer.from('{not json')), gz, 'mqtt');
    const good = service.acceptBody(device, body(NOW - 30_000), gz, 'mqtt');
    while (held.length < 2) await tick();
    held[1]?.();
    held[0]?.();
    expect((await bad).kind).toBe('undecodable');
    expect((await good).kind).toBe('written');
    expect(writes).toEqual([[NOW - 30_000, NOW - 29_000]]);
  });
});
