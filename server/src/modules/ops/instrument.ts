import type { Metrics } from './metrics.ts';

/** The reads of the telemetry store that /metrics times, by the name of the method. */
const STORE_READS = new Set([
  'buckets',
  'bucketColumns',
  'points',
  'pointColumns',
  'summedRegister',
  'downsample',
]);

const seconds = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e9;

/**
 * The telemetry store with its writes and reads timed into `metrics`: a proxy, so whatever else
 * the wing offers (writableFrom, ping, backup) passes through unchanged. It is told only through the
 * store's public methods (ops knows no wing).
 */
export function instrumentStore<S extends { write(points: readonly unknown[]): Promise<void> }>(
  store: S,
  metrics: Pick<Metrics, 'storeWritten' | 'storeWriteFailed' | 'storeRead'>,
): S {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      // Points come one by one (write) or as a thing's column batch (writeBatch, what ingest uses).
      if (property === 'write' || property === 'writeBatch') {
        return async (points: readonly unknown[] | { ts: { length: number } }) => {
          const start = process.hrtime.bigint();
          try {
            await value.call(target, points);
          } catch (error) {
            metrics.storeWriteFailed();
            throw error;
          }
          metrics.storeWritten(seconds(start), 'ts' in points ? points.ts.length : points.length);
        };
      }
      if (typeof property === 'string' && STORE_READS.has(property)) {
        return async (...args: unknown[]) => {
          const start = process.hrtime.bigint();
          try {
            return await value.apply(target, args);
          } finally {
            metrics.storeRead(property, seconds(start));
          }
        };
      }
      return value.bind(target);
    },
  });
}

/** What one write of the ingest service answers. */
interface IngestOutcome {
  accepted: number;
  rejected: readonly { reason: string }[];
}

/** What of the ingest service is counted (ops does not import ingest: the shape is enough). */
interface CountedIngest {
  accept(device: never, items: never, source: string): Promise<IngestOutcome>;
  /** A whole body (HTTP, line protocol, MQTT): `written` carries the outcome of its values. */
  acceptBody(
    device: never,
    body: never,
    format: never,
    source: string,
  ): Promise<{ kind: string; result?: IngestOutcome }>;
  refused(source: string, thing: string | null, reason: string, detail: string): void;
}

/**
 * The ingest service with accepted and rejected values counted by path, and its calls under way
 * tracked, so a shutdown can wait for every message that is being written (`settled`).
 */
export function instrumentIngest<I extends CountedIngest>(
  ingest: I,
  metrics: Pick<Metrics, 'ingestAccepted' | 'ingestRejected'>,
): { ingest: I; settled: () => Promise<void> } {
  const running = new Set<Promise<unknown>>();
  const count = (source: string, result: IngestOutcome) => {
    metrics.ingestAccepted(source, result.accepted);
    const byReason = new Map<string, number>();
    for (const r of result.rejected) byReason.set(r.reason, (byReason.get(r.reason) ?? 0) + 1);
    for (const [reason, n] of byReason) metrics.ingestRejected(source, reason, n);
  };
  const tracked = async <T>(call: Promise<T>): Promise<T> => {
    running.add(call);
    try {
      return await call;
    } finally {
      running.delete(call);
    }
  };
  const accept = (async (device: never, items: never, source: string) => {
    const result = await tracked(ingest.accept(device, items, source));
    count(source, result);
    return result;
  }) as I['accept'];
  const acceptBody = (async (device: never, body: never, format: never, source: string) => {
    const outcome = await tracked(ingest.acceptBody(device, body, format, source));
    if (outcome.result) count(source, outcome.result);
    return outcome;
  }) as I['acceptBody'];
  const refused = (source: string, thing: string | null, reason: string, detail: string) => {
    metrics.ingestRejected(source, reason, 1);
    ingest.refused(source, thing, reason, detail);
  };
  return {
    ingest: { ...ingest, accept, acceptBody, refused },
    /** Resolves once every write under way now has finished (however it ended). */
    async settled() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
