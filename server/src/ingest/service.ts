import type { IngestResult, IngestStats, LiveValue } from '@kilowatch/contract';
import type { FastifyBaseLogger } from 'fastify';
import { createMemoryLive, type Live } from '../live/index.ts';
import type { Catalog } from '../modules/catalog/index.ts';
import type { Point, TelemetryStore } from '../telemetry/index.ts';
import type { Line } from './line-protocol.ts';
import { type Incoming, telemetryItems } from './payload.ts';
import { coerce, MAX_PAST_MS, pointTime, type RejectReason } from './values.ts';

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
      const oldest = Math.max(arrival - MAX_PAST_MS, deps.writableFrom?.(arrival) ?? 0);
      const rejected: IngestResult['rejected'] = [];
      const total = items.reduce(
        (n, item) => n + (item.values === null ? 1 : item.values.length) + (item.unexpected?.length ?? 0),
        0,
      );
      counters.received += total;
      counters.bySource[source] = (counters.bySource[source] ?? 0) + total;
      if (total > deps.maxBatch) {
        reject(
          source,
          device.identifier,
          'batch too large',
          total,
          `${total} values, at most ${deps.maxBatch}`,
        );
        return { accepted: 0, rejected: [{ index: 0, metric: null, reason: 'batch too large' }] };
      }
      const abilities = await catalog.abilitiesOf(device.id);
      const points: Point[] = [];
      const texts: LiveValue[] = [];
      const refuse = (index: number, metric: string | null, reason: RejectReason, count = 1) => {
        rejected.push({ index, metric, reason });
        reject(source, device.identifier, reason, count, metric ? `${metric} (#${index})` : `#${index}`);
      };
      for (const item of items) {
        if (item.values === null) {
          refuse(item.index, null, 'bad message');
          continue;
        }
        // A key beside ts/values makes the whole message bad: its values are not written either
        // (a device sending {"__proto__":…,"values":…} is told, not half-taken).
        if (item.unexpected?.length) {
          for (const key of item.unexpected) refuse(item.index, key, 'bad message');
          for (const [metric] of item.values) refuse(item.index, metric, 'bad message');
          continue;
        }
        const ts = pointTime(item.ts, arrival, oldest);
        if (ts === undefined) {
          for (const [metric] of item.values) refuse(item.index, metric, 'bad timestamp');
          continue;
        }
        for (const [key, raw] of item.values) {
          let ability = abilities.get(key);
          if (!ability && item.measurement !== undefined)
            ability = abilities.get(`${item.measurement}_${key}`);
          if (!ability) {
            refuse(item.index, key, 'unknown metric');
            continue;
          }
          const value = coerce(ability, raw);
          if (value.kind === 'rejected') refuse(item.index, key, value.reason);
          else if (value.kind === 'number')
            points.push({ thingId: device.id, metric: ability.identifier, ts, value: value.value });
          else texts.push({ thingId: device.id, metric: ability.identifier, ts, value: value.value });
        }
      }
      await store.write(points);
      const accepted = points.length + texts.length;
      counters.accepted += accepted;
      live.publish([
        ...points.map((p) => ({ thingId: p.thingId, metric: p.metric, ts: p.ts, value: p.value })),
        ...texts,
      ]);
      return { accepted, rejected };
    },

    /** A decoded JSON payload as items (every ThingsBoard shape, see payload.ts). */
    fromJson: telemetryItems,

    /** Parsed line-protocol lines as items (index = line number; tags are not used). */
    fromLines(lines: readonly Line[]): Incoming[] {
      return lines.map((l) => ({ index: l.line, ts: l.ts, values: l.fields, measurement: l.measurement }));
    },

    /** Counts a message refused before its values could be read (unknown thing, bad JSON, wrong topic). */
    refused(source: Source, thing: string | null, reason: RejectReason, detail: string): void {
      counters.received += 1;
      counters.bySource[source] = (counters.bySource[source] ?? 0) + 1;
      reject(source, thing, reason, 1, detail);
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
