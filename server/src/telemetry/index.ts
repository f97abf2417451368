import { DuckDBTelemetryStore } from './duckdb/store.ts';
import type { RetentionDays, TelemetryStore } from './store.ts';
import { VictoriaTelemetryStore } from './victoria/store.ts';

export {
  DAY,
  HOUR,
  MINUTE,
  PlantCalendar,
} from '@kilowatch/contract/calendar';
export {
  bucketStart,
  bucketWidthFor,
  gridOf,
  MAX_BUCKETS,
  type Resolution,
} from './buckets.ts';
export { counterIncrement } from './counter.ts';
export { downsample } from './downsample.ts';
export { DuckDBTelemetryStore } from './duckdb/store.ts';
export type * from './store.ts';
export { DEFAULT_RETENTION } from './store.ts';
export { VictoriaTelemetryStore } from './victoria/store.ts';

export interface TelemetryStoreOptions {
  /** DATA_DIR: the store lives in DATA_DIR/telemetry.duckdb. */
  dataDir: string;
  /** PLANT_TIMEZONE (IANA). */
  timeZone: string;
  /** RETENTION_RAW_DAYS, RETENTION_MINUTE_DAYS, RETENTION_HOUR_DAYS; day rollups are kept forever. */
  retention: RetentionDays;
  /** ms since the epoch (tests move it). */
  now?: () => number;
  /** TELEMETRY_MEMORY_MB: DuckDB's memory_limit in MB (unset: the store's default); DuckDB only. */
  memoryMb?: number | undefined;
  /**
   * TELEMETRY_URL: store telemetry in VictoriaMetrics there instead of DATA_DIR/telemetry.duckdb
   * (a single node, or a cluster's vminsert path with its tenant, docs/telemetry-store.md).
   */
  url?: string;
  /** TELEMETRY_SELECT_URL: the cluster's vmselect path with the same tenant (unset for a single node). */
  selectUrl?: string;
}

/** What the server needs of either wing beside the interface. */
export interface OpenedTelemetryStore extends TelemetryStore {
  /** Oldest timestamp write() accepts at `now` (the raw retention). */
  writableFrom(now?: number): number;
  /** Rows the DuckDB wing moved to interval-ending counters at this open, if any (the server logs it). */
  readonly upgraded: { minute: number; hour: number; day: number } | null;
  /** Resolves when the backend answers, rejects with why not (the readiness probe). */
  ping(): Promise<void>;
  /**
   * Copies the embedded store, consistent as of one instant, into `file` (a new DuckDB file) while
   * writes go on. Absent on VictoriaMetrics, which vmbackup backs up (docs/deploy.md).
   */
  backup?(file: string): Promise<void>;
  /**
   * Bytes the embedded store holds outside Node's heap, by part (DuckDB's memory by its tag, the
   * hour and day rows kept for reads): for /metrics. Absent on VictoriaMetrics.
   */
  memory?(): Promise<Record<string, number>>;
}

/**
 * Opens (or creates) the telemetry store. The caller closes it (`await store.close()`) on
 * shutdown, and calls `applyRetention(Date.now())` periodically (e.g. hourly).
 */
export function openTelemetryStore(
  options: TelemetryStoreOptions & { url?: undefined },
): Promise<DuckDBTelemetryStore>;
export function openTelemetryStore(options: TelemetryStoreOptions): Promise<OpenedTelemetryStore>;
export function openTelemetryStore(options: TelemetryStoreOptions): Promise<OpenedTelemetryStore> {
  if (options.url) {
    return VictoriaTelemetryStore.open({
      url: options.url,
      ...(options.selectUrl ? { selectUrl: options.selectUrl } : {}),
      timeZone: options.timeZone,
      retention: options.retention,
      ...(options.now ? { now: options.now } : {}),
    });
  }
  const { memoryMb, ...rest } = options;
  return DuckDBTelemetryStore.open({ ...rest, ...(memoryMb ? { memoryLimit: `${memoryMb}MB` } : {}) });
}
