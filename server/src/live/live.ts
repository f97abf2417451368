import type { LiveValue } from '@kilowatch/contract';

/** One metric of one thing: the key of a latest value. */
interface Series {
  thingId: number;
  metric: string;
}

type LiveListener = (values: readonly LiveValue[]) => void;

/**
 * The hub for values as they arrive: ingest publishes, realtime, SSE and (later) alarms read.
 * An interface, so the replica tier can put a broker or PostgreSQL LISTEN/NOTIFY driver behind it;
 * the memory driver below serves one process.
 */
export interface Live {
  /** Remembers each value as its series' latest (unless an older point arrives late) and tells subscribers. */
  publish(values: readonly LiveValue[]): void;
  /** The latest value of one series, number or string, or undefined if none was published. */
  latest(series: Series): LiveValue | undefined;
  /** The latest values of all series of one thing. */
  latestOf(thingId: number): readonly LiveValue[];
  /** Calls fn with each published batch; returns the unsubscribe function. */
  subscribe(fn: LiveListener): () => void;
}

/** Where a throwing subscriber is reported, so one bad listener never stops the others. */
export type LiveErrorSink = (error: unknown) => void;

/** The in-process driver: latest values in a map per thing, subscribers in a set. */
export function createMemoryLive(onError: LiveErrorSink): Live {
  const latest = new Map<number, Map<string, LiveValue>>();
  const listeners = new Set<LiveListener>();
  return {
    publish(values) {
      if (values.length === 0) return;
      for (const v of values) {
        let map = latest.get(v.thingId);
        if (!map) {
          map = new Map();
          latest.set(v.thingId, map);
        }
        const previous = map.get(v.metric);
        if (!previous || previous.ts <= v.ts) map.set(v.metric, v);
      }
      for (const listener of listeners) {
        try {
          listener(values);
        } catch (error) {
          onError(error);
        }
      }
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
