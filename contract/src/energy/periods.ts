import type { GroupByTime, Period } from '../query.ts';

/**
 * The bucket of each calendar period when a read names none: a day by hours, a month by days, a
 * year by months. The one table of it: the server's statistics and reports and the console's
 * charts all read it from here.
 */
export const PERIOD_BUCKET: Readonly<Record<Period, GroupByTime>> = {
  day: 'hour',
  month: 'day',
  year: 'month',
};
