import {
  type GroupByTime,
  HOUR,
  PERIOD_BUCKET,
  PERIODS,
  type Period,
  PlantCalendar,
} from '@kilowatch/contract';

/** The period whose buckets are `unit` (the inverse of the contract's table): hours make a day. */
const PERIOD_OF_BUCKET = new Map<GroupByTime, Period>(PERIODS.map((p) => [PERIOD_BUCKET[p], p]));

/**
 * Energy's periods on the plant calendar: the bucket of a period (the contract's one table, shared
 * with the console), a period's range, how many buckets a range holds and what each is called.
 * Built once on the server's one calendar (services.ts).
 */
export function createPeriods(calendar: PlantCalendar) {
  return {
    /** A day by hours, a month by days, a year by months. */
    bucketOf: (period: Period): GroupByTime => PERIOD_BUCKET[period],

    /** [start, end) of the period that holds `at`. */
    range: (period: Period, at: number) => calendar.periodRange(period, at),

    /** How many buckets of `unit` [start, end) holds on the plant calendar (a range's columns). */
    bucketCount(start: number, end: number, unit: string): number {
      if (unit === 'hour') return Math.ceil((end - start) / HOUR);
      const first = calendar.dayOf(start);
      const last = calendar.dayOf(end - 1);
      if (unit === 'day') return last - first + 1;
      const months = PlantCalendar.monthOfDay(last) - PlantCalendar.monthOfDay(first);
      if (unit === 'month') return months + 1;
      return (
        Math.floor(PlantCalendar.monthOfDay(last) / 12) - Math.floor(PlantCalendar.monthOfDay(first) / 12) + 1
      );
    },

    /** What a bucket is called (spec §9); hours of a range longer than a day carry their date. */
    labeler(unit: string, start: number, end: number): (ts: number) => string {
      if (unit === 'year') return (ts) => calendar.format(ts, 'YYYY');
      const period = PERIOD_OF_BUCKET.get(unit as GroupByTime) ?? 'year';
      if (unit === 'hour' && calendar.dayOf(end - 1) !== calendar.dayOf(start)) {
        return (ts) => calendar.format(ts, 'MM-DD HH:00');
      }
      return (ts) => calendar.periodLabel(period, ts);
    },
  };
}
