import type { IngestResult, IngestStats } from '@kilowatch/contract';
import type { FastifyBaseLogger } from 'fastify';
import { createMemoryLive, type Live } from '../live/index.ts';
import type { Catalog } from '../modules/catalog/index.ts';
import type { TelemetryStore } from '../telemetry/index.ts';
import { type Checked, checkItems, countValues, resultOf } from './check.ts';
import type { LineError } from './line-protocol.ts';
import { type BodyFormat, type Parsed, type ParseJob, parseBody } from './parse.ts';
import { ParsePool, WORKER_MIN_BYTES } from './parse-pool.ts';
import type { Incoming } from './payload.ts';
import { MAX_PAST_MS, type RejectReason } from './values.ts';

/** The thing a message belongs to. */
export interface Device {
  id: number;
  identifier: string;
  name: string;
}

export type Source = 'mqtt' | 'http' | 'line';

export interface IngestDeps {
  /** Which thing a token or identifier names and what abilities it has (cached there). */
  catalog: Pick<Catalog, 'thingByToken' | 'thingByIdentifier' | 'abilitiesOf'>;
  store: TelemetryStore;
  log: FastifyBaseLogger;
  now: () => number;
  /** INGEST_MAX_BATCH: most values one request, message or body may carry. */
  maxBatch: number;
  /** Oldest time the store accepts now (its raw retention), ms. */
  writableFrom?: (now: number) => number;
  /** Where accepted values are published (latest values, subscribers); an in-memory hub if absent. */
  live?: Live;
  /** Parses large bodies off the main thread; one of its own if absent (workers start on first use). */
  parsePool?: ParsePool;
}

/**
 * Each device's writes in the order its bodies arrived: bodies are parsed concurrently (a parse
 * worker, the main thread for small ones, a catalog lookup first), and a later body finished
 * first would reach the store before the earlier one, whose points are then late (the store
 * recomputes their rollups from stored points instead of going on from memory). A body takes its
 * turn on arrival, waits for the turn before it just before writing, and passes its turn on once
 * its write is queued (not durable: commits of one device still share transactions).
 */
class DeviceTurns {
  private readonly tails = new Map<number, Promise<void>>();

  /** Takes the next turn of device `id`: `ready` once every earlier turn was passed on. */
  enter(id: number): { ready: Promise<void>; leave: () => void } {
    const before = this.tails.get(id);
    let leave = () => {};
    const left = new Promise<void>((resolve) => {
      leave = resolve;
    });
    const tail = before ? before.then(() => left) : left;
    this.tails.set(id, tail);
    void tail.then(() => {
      if (this.tails.get(id) === tail) this.tails.delete(id);
    });
    return { ready: before ?? Promise.resolve(), leave };
  }
}

/** A repeated rejection of the same thing and reason is logged at most once per this. */
const LOG_EVERY_MS = 60_000;

/**
 * Telemetry ingest shared by MQTT, HTTP JSON and line protocol: validates values against the
 * thing's abilities, writes numbers through the store (acknowledged once durable), publishes
 * every accepted value (numbers and strings) to the live hub, and counts everything.
 */
export function createIngestService(deps: IngestDeps) {
  const { catalog, store, log, now } = deps;
  const live = deps.live ?? createMemoryLive((error) => log.error({ err: error }, 'live listener failed'));
  const loggedAt = new Map<string, number>();
  const counters = {
    since: now(),
    received: 0,
    accepted: 0,
    rejected: {} as Record<string, number>,
    bySource: {} as Record<string, number>,
    lastError: null as IngestStats['lastError'],
  };

  function noteError(source: Source | 'mqtt-topic', thing: string | null, message: string): void {
    counters.lastError = { at: now(), source, thing, message };
    const key = `${thing}\u0000${message.slice(0, 40)}`;
    const last = loggedAt.get(key);
    if (last !== undefined && now() - last < LOG_EVERY_MS) return;
    if (loggedAt.size > 10_000) loggedAt.clear();
    loggedAt.set(key, now());
    log.warn({ source, thing }, `telemetry rejected: ${message}`);
  }

  function reject(source: Source, thing: string | null, reason: RejectReason, count: number, detail: string) {
    counters.rejected[reason] = (counters.rejected[reason] ?? 0) + count;
    noteError(source, thing, `${reason}: ${detail}`);
  }

  /** Counts a message refused before its values could be read (unknown thing, bad JSON, wrong topic). */
  function refused(source: Source, thing: string | null, reason: RejectReason, detail: string): void {
    counters.received += 1;
    counters.bySource[source] = (counters.bySource[source] ?? 0) + 1;
    reject(source, thing, reason, 1, detail);
  }

  const pool = deps.parsePool ?? new ParsePool();
  const turns = new DeviceTurns();
  const oldestAt = (arrival: number) => Math.max(arrival - MAX_PAST_MS, deps.writableFrom?.(arrival) ?? 0);

  function tooLarge(device: Device, source: Source, total: number): IngestResult {
    counters.received += total;
    counters.bySource[source] = (counters.bySource[source] ?? 0) + total;
    reject(source, device.identifier, 'batch too large', total, `${total} values, at most ${deps.maxBatch}`);
    return { accepted: 0, rejected: [{ index: 0, metric: null, reason: 'batch too large' }] };
  }

  /** Counts a checked batch, writes its numbers (resolves once durable), then publishes it. */
  async function write(
    device: Device,
    source: Source,
    total: number,
    checked: Checked,
  ): Promise<IngestResult> {
    counters.received += total;
    counters.bySource[source] = (counters.bySource[source] ?? 0) + total;
    for (const r of checked.rejected)
      reject(source, device.identifier, r.reason, 1, r.metric ? `${r.metric} (#${r.index})` : `#${r.index}`);
    const n = checked.numbers;
    await store.writeBatch(n);
    const result = resultOf(checked);
    counters.accepted += result.accepted;
    live.publishColumns(n, checked.texts);
    return result;
  }

  return {
    /**
     * The thing owning a device access token. Without `cached` the database is asked (a CONNECT,
     * an HTTP request); with it the catalog's copy may answer (every MQTT publish re-checks).
     */
    deviceByToken(token: string, { cached = false } = {}): Promise<Device | undefined> {
      return catalog.thingByToken(token, { cached });
    },

    deviceByIdentifier(identifier: string): Promise<Device | undefined> {
      return catalog.thingByIdentifier(identifier);
    },

    /**
     * Validates and writes one batch of one device. Resolves once every accepted number is durable
     * (rejects when the store fails: nothing of the batch may be acknowledged then). One bad value
     * never drops the rest of its batch.
     */
    async accept(device: Device, items: readonly Incoming[], source: Source): Promise<IngestResult> {
      const arrival = now();
      const total = countValues(items);
      if (total > deps.maxBatch) return tooLarge(device, source, total);
      const turn = turns.enter(device.id);
      try {
        const abilities = await catalog.abilitiesOf(device.id);
        const checked = checkItems(items, abilities, device.id, arrival, oldestAt(arrival));
        await turn.ready;
        const written = write(device, source, total, checked);
        turn.leave();
        return await written;
      } finally {
        turn.leave();
      }
    },

    /**
     * A whole body (JSON or line protocol, gzip or not) of one device: inflated, parsed and checked
     * in a parse worker when compressed or large (the main thread stays free for queries), then
     * written as accept() writes. Resolves once durable; a body that cannot be read at all is
     * counted and answered as such.
     */
    async acceptBody(
      device: Device,
      body: Uint8Array,
      format: BodyFormat,
      source: Source,
    ): Promise<
      { kind: 'written'; result: IngestResult; lineErrors: LineError[] } | Exclude<Parsed, { kind: 'values' }>
    > {
      const arrival = now();
      const turn = turns.enter(device.id);
      try {
        const abilities = await catalog.abilitiesOf(device.id);
        const job: ParseJob = {
          body,
          format,
          abilities: [...abilities].map(([key, a]) => [
            key,
            { identifier: a.identifier, dataType: a.dataType, enumOptions: a.enumOptions },
          ]),
          thingId: device.id,
          arrival,
          oldest: oldestAt(arrival),
          maxBatch: deps.maxBatch,
        };
        // A gzip body of any size is inflated in a worker: a few compressed KB may inflate to MBs.
        const parsed =
          format.gzip || body.byteLength >= WORKER_MIN_BYTES ? await pool.parse(job) : parseBody(job);
        if (parsed.kind !== 'values') return parsed;
        for (const e of parsed.lineErrors)
          refused(source, device.identifier, 'bad message', `line ${e.line}: ${e.message}`);
        await turn.ready;
        const written = parsed.checked
          ? write(device, source, parsed.total, parsed.checked)
          : tooLarge(device, source, parsed.total);
        turn.leave();
        return { kind: 'written', result: await written, lineErrors: parsed.lineErrors };
      } finally {
        turn.leave();
      }
    },

    refused,

    /**
     * Ends the parse workers once no body is being parsed (graceful shutdown, after ingest
     * settled); a pool passed in `deps` is its owner's to close.
     */
    close(): Promise<void> {
      return deps.parsePool ? Promise.resolve() : pool.close();
    },

    /** Records a failure that is not a rejection (store error, broker error) as the last error. */
    failed(source: Source, thing: string | null, message: string): void {
      noteError(source, thing, message);
    },

    counters(): Omit<IngestStats, 'mqtt'> {
      return {
        since: counters.since,
        received: counters.received,
        accepted: counters.accepted,
        rejected: { ...counters.rejected },
        bySource: { ...counters.bySource },
        lastError: counters.lastError,
      };
    },
  };
}

export type IngestService = ReturnType<typeof createIngestService>;
