/** What replicas tell each other (docs/cluster.md): each topic has one meaning. */
export type ClusterTopic =
  /** Thing or region metadata changed: drop the catalog cache, reload the alarm watches. */
  | 'catalog'
  /** Alarm rules, monitors, templates, maintenance or out-of-service changed: reload the watches. */
  | 'alarms'
  /** A batch of live values ingested by another replica (cluster/live.ts). */
  | 'live';

export type ClusterListener = (payload: string) => void;

/**
 * How server processes sharing one metadata database coordinate. The in-process driver
 * (`createSingleCluster`) is the embedded default: nobody else to tell, every partition owned.
 * The PostgreSQL driver (`createPostgresCluster`) uses LISTEN/NOTIFY and advisory locks.
 */
export interface Cluster {
  /** 'single' for one process; 'replica' when others may share the database. */
  readonly mode: 'single' | 'replica';
  /** Tells every other replica (never this one). Best effort: a replica not listening misses it. */
  broadcast(topic: ClusterTopic, payload: string): void;
  /**
   * Calls `fn` with what other replicas broadcast on `topic`. After the listening connection was
   * lost and came back, `fn` is called with '' (anything may have been missed meanwhile).
   */
  subscribe(topic: ClusterTopic, fn: ClusterListener): () => void;
  /** Whether this replica evaluates the alarm monitor `monitorId` now. */
  ownsMonitor(monitorId: number): boolean;
  /**
   * Called when the monitors this replica owns change, and awaited before a partition is given
   * up, so its last transitions are written before another replica takes it.
   */
  onOwnershipChange(fn: () => Promise<void>): void;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** The embedded default: one process, nothing to tell, every monitor its own. */
export function createSingleCluster(): Cluster {
  return {
    mode: 'single',
    broadcast: () => undefined,
    subscribe: () => () => undefined,
    ownsMonitor: () => true,
    onOwnershipChange: () => undefined,
    start: async () => undefined,
    close: async () => undefined,
  };
}
