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
      if (property === 'write') {
        return async (points: readonly unknown[]) => {
          const start = process.hrtime.bigint();
          try {
            await target.write(points);
          } catch (error) {
            metrics.storeWriteFailed();
            throw error;
          }
          metrics.storeWritten(seconds(start), points.length);
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

/** What of the ingest service is counted (ops does not import ingest: the shape is enough). */
interface CountedIngest {
  accept(
    device: never,
    items: never,
    source: string,
  ): Promise<{ accepted: number; rejected: readonly { reason: string }[] }>;
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
  const accept = (async (device: never, items: never, source: string) => {
    const call = ingest.accept(device, items, source);
    running.add(call);
    try {
      const result = await call;
      metrics.ingestAccepted(source, result.accepted);
      const byReason = new Map<string, number>();
      for (const r of result.rejected) byReason.set(r.reason, (byReason.get(r.reason) ?? 0) + 1);
      for (const [reason, count] of byReason) metrics.ingestRejected(source, reason, count);
      return result;
    } finally {
      running.delete(call);
    }
  }) as I['accept'];
  const refused = (source: string, thing: string | null, reason: string, detail: string) => {
    metrics.ingestRejected(source, reason, 1);
    ingest.refused(source, thing, reason, detail);
  };
  return {
    ingest: { ...ingest, accept, refused },
    /** Resolves once every accept() under way now has finished (however it ended). */
    async settled() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
