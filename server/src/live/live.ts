import type { LiveValue } from '@kilowatch/contract';
import type { PointBatch } from '../telemetry/index.ts';

/** One metric of one thing: the key of a latest value. */
interface Series {
  thingId: number;
  metric: string;
}

/**
 * One published batch as its listeners see it. Ingest publishes a thing's numbers as the store's
 * columns: a listener that walks them with `forEach`, or skips the batch by its thing, costs no
 * object per value on the main thread; `values()` builds the objects once, for the listeners that
 * need them (an SSE client of the thing, the cluster's broadcast).
 */
export interface LiveBatch {
  /** The thing every value belongs to, or null when the batch mixes things. */
  readonly thingId: number | null;
  readonly size: number;
  /** Each value in order, without an object per value. */
  forEach(fn: (thingId: number, metric: string, ts: number, value: number | string) => void): void;
  /** The values as objects, built on the first call and shared by every later caller. */
  values(): readonly LiveValue[];
}

type LiveListener = (batch: LiveBatch) => void;

/**
 * The hub for values as they arrive: ingest publishes, realtime, SSE and alarms read. An
 * interface, so the replica tier can put a broker or PostgreSQL LISTEN/NOTIFY driver behind it;
 * the memory driver below serves one process.
 */
export interface Live {
  /** Remembers each value as its series' latest (unless an older point arrives late) and tells subscribers. */
  publish(values: readonly LiveValue[]): void;
  /** As publish, for one thing's numbers as columns (ingest's batches) and its strings. */
  publishColumns(numbers: PointBatch, texts: readonly LiveValue[]): void;
  /** The latest value of one series, number or string, or undefined if none was published. */
  latest(series: Series): LiveValue | undefined;
  /** The latest values of all series of one thing. */
  latestOf(thingId: number): readonly LiveValue[];
  /** Calls fn with each published batch; returns the unsubscribe function. */
  subscribe(fn: LiveListener): () => void;
}

/** Where a throwing subscriber is reported, so one bad listener never stops the others. */
export type LiveErrorSink = (error: unknown) => void;

/** A batch of value objects (a replica's broadcast, a string, a test). */
export function batchOf(values: readonly LiveValue[]): LiveBatch {
  const first = values[0]?.thingId;
  const one = first !== undefined && values.every((v) => v.thingId === first);
  return {
    thingId: one ? first : null,
    size: values.length,
    forEach(fn) {
      for (const v of values) fn(v.thingId, v.metric, v.ts, v.value);
    },
    values: () => values,
  };
}

/** A batch of one thing's number columns followed by its strings; objects only when asked. */
export function columnBatch(numbers: PointBatch, texts: readonly LiveValue[]): LiveBatch {
  const { thingId, metrics, metric, ts, values } = numbers;
  let built: LiveValue[] | undefined;
  return {
    thingId: texts.every((v) => v.thingId === thingId) ? thingId : null,
    size: ts.length + texts.length,
    forEach(fn) {
      for (let i = 0; i < ts.length; i++)
        fn(thingId, metrics[metric[i] as number] as string, ts[i] as number, values[i] as number);
      for (const v of texts) fn(v.thingId, v.metric, v.ts, v.value);
    },
    values() {
      if (built) return built;
      built = new Array(ts.length + texts.length);
      for (let i = 0; i < ts.length; i++)
        built[i] = {
          thingId,
          metric: metrics[metric[i] as number] as string,
          ts: ts[i] as number,
          value: values[i] as number,
        };
      for (let i = 0; i < texts.length; i++) built[ts.length + i] = texts[i] as LiveValue;
      return built;
    },
  };
}

/** The in-process driver: latest values in a map per thing, subscribers in a set. */
export function createMemoryLive(onError: LiveErrorSink): Live {
  const latest = new Map<number, Map<string, LiveValue>>();
  const listeners = new Set<LiveListener>();

  function seriesOf(thingId: number): Map<string, LiveValue> {
    let map = latest.get(thingId);
    if (!map) {
      map = new Map();
      latest.set(thingId, map);
    }
    return map;
  }

  function remember(v: LiveValue): void {
    const map = seriesOf(v.thingId);
    const previous = map.get(v.metric);
    if (!previous || previous.ts <= v.ts) map.set(v.metric, v);
  }

  function tell(batch: LiveBatch): void {
    for (const listener of listeners) {
      try {
        listener(batch);
      } catch (error) {
        onError(error);
      }
    }
  }

  return {
    publish(values) {
      if (values.length === 0) return;
      for (const v of values) remember(v);
      tell(batchOf(values));
    },
    publishColumns(numbers, texts) {
      const { thingId, metrics, metric, ts, values } = numbers;
      if (ts.length + texts.length === 0) return;
      if (ts.length > 0) {
        // The newest row of each metric of the batch (the last one of equal times, as publish()
        // keeps it): one object and one map write per metric, not per value.
        const newest = new Int32Array(metrics.length).fill(-1);
        for (let i = 0; i < ts.length; i++) {
          const m = metric[i] as number;
          const at = newest[m] as number;
          if (at < 0 || (ts[at] as number) <= (ts[i] as number)) newest[m] = i;
        }
        const map = seriesOf(thingId);
        for (let m = 0; m < metrics.length; m++) {
          const i = newest[m] as number;
          if (i < 0) continue;
          const name = metrics[m] as string;
          const previous = map.get(name);
          if (!previous || previous.ts <= (ts[i] as number))
            map.set(name, { thingId, metric: name, ts: ts[i] as number, value: values[i] as number });
        }
      }
      for (const v of texts) remember(v);
      tell(columnBatch(numbers, texts));
    },
    latest(series) {
      return latest.get(series.thingId)?.get(series.metric);
    },
    latestOf(thingId) {
      return [...(latest.get(thingId)?.values() ?? [])];
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => {
        listeners.delete(fn);
      };
    },
  };
}
