import { DuckDBTelemetryStore } from './duckdb/store.ts';
import type { RetentionDays } from './store.ts';

export {
  assertTimeZone,
  DAY,
  HOUR,
  MINUTE,
  PlantCalendar,
  processTimeZone,
} from '@kilowatch/contract/calendar';
export {
  bucketStart,
  bucketWidthFor,
  gridOf,
  MAX_BUCKETS,
  MIN_GAP_MS,
  type Resolution,
} from './buckets.ts';
export {
  counterConsumption,
  counterIncrement,
  counterIncrements,
  energyAt,
  type Reading,
  windowEnergies,
} from './counter.ts';
export { downsample, lttb } from './downsample.ts';
export { DuckDBTelemetryStore } from './duckdb/store.ts';
export type * from './store.ts';
export { bucketsOf, DEFAULT_RETENTION, TelemetryWriteError } from './store.ts';

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
