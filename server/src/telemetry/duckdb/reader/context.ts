import type { PlantCalendar } from '@kilowatch/contract/calendar';
import type { Lane } from '../schema.ts';
import type { SeriesTable } from '../series.ts';

/** What reads need of the store. */
export interface ReadContext {
  readonly calendar: PlantCalendar;
  readonly series: SeriesTable;
  /** The least busy reader connection. */
  reader(): Lane;
  now(): number;
}
