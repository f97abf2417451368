import type { PlantCalendar } from '@kilowatch/contract/calendar';
import type { MinuteHorizon } from '../minutes.ts';
import type { RollupCache } from '../rollup-cache.ts';
import type { Lane } from '../schema.ts';
import type { SeriesTable } from '../series.ts';

/** What reads need of the store. */
export interface ReadContext {
  readonly calendar: PlantCalendar;
  readonly series: SeriesTable;
  /** The least busy reader connection. */
  reader(): Lane;
  now(): number;
  /** Minute rows are stored below it; above it minutes come from raw points (minutes.ts). */
  readonly horizon: MinuteHorizon;
  /**
   * Raw buckets over stored points expected to hold at most this many points are aggregated in JS
   * over the fetched points, larger ones by DuckDB (reader/buckets.ts aggregateStored).
   */
  readonly rawRowsInJs: number;
  /** Hour and day rows of recently read series (rollup-cache.ts). */
  readonly rollups: RollupCache;
}
