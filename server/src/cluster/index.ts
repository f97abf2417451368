import type { Config } from '../config.ts';
import type { Live } from '../live/index.ts';
import { type Cluster, createSingleCluster } from './cluster.ts';
import { clusterLive } from './live.ts';
import { createPostgresCluster, MAX_PAYLOAD } from './postgres.ts';

export type { Cluster } from './cluster.ts';
export { createSingleCluster } from './cluster.ts';

interface Log {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

/**
 * The coordination DATABASE_URL implies (docs/cluster.md): replicas on one PostgreSQL database
 * coordinate through it with no further setting; the embedded SQLite database is one process.
 */
export function createCluster(database: Config['database'], log: Log): Cluster {
  return database.kind === 'postgres'
    ? createPostgresCluster({ url: database.url, log })
    : createSingleCluster();
}

/** The live hub shared with the other replicas, or `local` itself for one process. */
export function shareLive(local: Live, cluster: Cluster, log: Log): Live {
  return cluster.mode === 'single' ? local : clusterLive(local, cluster, { maxPayload: MAX_PAYLOAD, log });
}

export { sharedJwtSecret } from './secret.ts';
