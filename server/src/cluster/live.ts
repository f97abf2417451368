import type { LiveValue } from '@kilowatch/contract';
import { batchOf, columnBatch, type Live, type LiveBatch } from '../live/index.ts';
import type { Cluster } from './cluster.ts';

/** Values gathered this long before one broadcast: well inside the 1 s a value may take to show. */
const BATCH_MS = 50;

/** [thingId, metric, ts, value]: a third the size of the object form, so more fit in a NOTIFY. */
type Wire = [number, string, number, number | string];

export interface ClusterLiveOptions {
  /** Largest payload one broadcast may carry (NOTIFY's limit, less the envelope). */
  maxPayload: number;
  log: { warn(obj: unknown, msg?: string): void };
}

/**
 * Encodes the batches' values as few payloads of at most `maxPayload` characters. A value too
 * large for any payload on its own (a long string) is left out and counted, not split.
 * @example chunk([batchOf(values)], 7900) // ['[[1,"P",1764…,3.2],…]', …]
 */
export function chunk(
  batches: readonly LiveBatch[],
  maxPayload: number,
): { payloads: string[]; dropped: number } {
  const payloads: string[] = [];
  let dropped = 0;
  let current: string[] = [];
  let size = 2;
  for (const batch of batches)
    batch.forEach((thingId, metric, ts, value) => {
      const one = JSON.stringify([thingId, metric, ts, value] satisfies Wire);
      if (one.length + 2 > maxPayload) {
        dropped++;
        return;
      }
      if (size + one.length + 1 > maxPayload) {
        payloads.push(`[${current.join(',')}]`);
        current = [];
        size = 2;
      }
      current.push(one);
      size += one.length + 1;
    });
  if (current.length > 0) payloads.push(`[${current.join(',')}]`);
  return { payloads, dropped };
}

const decode = (payload: string): LiveValue[] =>
  (JSON.parse(payload) as Wire[]).map(([thingId, metric, ts, value]) => ({ thingId, metric, ts, value }));

/**
 * The live hub of a replica: values ingested here are published locally at once and broadcast to
 * the other replicas in batches; values another replica broadcast are published here, so every
 * replica's SSE clients, realtime reads and alarm runner see every value whichever replica
 * ingested it. One process (`cluster.mode === 'single'`) keeps the local hub as it is.
 */
export function clusterLive(
  local: Live,
  cluster: Cluster,
  options: ClusterLiveOptions,
): Live & { flush(): void } {
  let pending: LiveBatch[] = [];
  let timer: NodeJS.Timeout | undefined;

  function flush(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const { payloads, dropped } = chunk(pending, options.maxPayload);
    pending = [];
    if (dropped > 0) options.log.warn({ dropped }, 'live values too large to share with other replicas');
    for (const payload of payloads) cluster.broadcast('live', payload);
  }

  cluster.subscribe('live', (payload) => {
    if (payload) local.publish(decode(payload));
  });

  function share(batch: LiveBatch): void {
    if (batch.size === 0) return;
    pending.push(batch);
    timer ??= setTimeout(flush, BATCH_MS);
  }

  return {
    publish(values) {
      local.publish(values);
      share(batchOf(values));
    },
    publishColumns(numbers, texts) {
      local.publishColumns(numbers, texts);
      share(columnBatch(numbers, texts));
    },
    latest: (series) => local.latest(series),
    latestOf: (thingId) => local.latestOf(thingId),
    subscribe: (fn) => local.subscribe(fn),
    flush,
  };
}
