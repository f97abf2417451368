import { DuckDBTelemetryStore } from './duckdb/store.ts';
import type { RetentionDays } from './store.ts';

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
export { DEFAULT_RETENTION, TelemetryWriteError } from './store.ts';

export interface TelemetryStoreOptions {
  /** DATA_DIR: the store lives in DATA_DIR/telemetry.duckdb. */
  dataDir: string;
  /** PLANT_TIMEZONE (IANA). */
  timeZone: string;
  /** RETENTION_RAW_DAYS, RETENTION_MINUTE_DAYS, RETENTION_HOUR_DAYS; day rollups are kept forever. */
  retention: RetentionDays;
  /** ms since the epoch (tests move it). */
  now?: () => number;
}

/**
 * Opens (or creates) the telemetry store. The caller closes it (`await store.close()`) on
 * shutdown, and calls `applyRetention(Date.now())` periodically (e.g. hourly).
 */
export function openTelemetryStore(options: TelemetryStoreOptions): Promise<DuckDBTelemetryStore> {
  return DuckDBTelemetryStore.open(options);
}
