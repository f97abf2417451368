import { PERIODS, PlantCalendar } from '@kilowatch/contract';
import { type Period, YOY_OPTIONS, type YoyOption } from '../../../components/charts/period.ts';
import type { ChartResource } from './period-query.ts';

/** The chart detail's state in the address: /home/chartdetail?resourceType=&resourceId=&metric=&period=&date=&yoy=&compare= */
export interface DetailParams {
  resource: ChartResource | null;
  metric: string | null;
  period: Period;
  /** A time inside the shown period (ms): the plant's midnight of the address's date. */
  date: number;
  yoy: YoyOption;
  /** The chosen comparison date (yoy 'date'), the plant's midnight of it. */
  compare: number | null;
}

/** A YYYY-MM-DD date of the address: the plant's day, whatever the browser's zone. */
const parseDate = (v: string | null, calendar: PlantCalendar): number | null => {
  const day = v ? PlantCalendar.dayOfDate(v) : null;
  return day === null ? null : calendar.dayStart(day);
};

/** The address's YYYY-MM-DD of a time: its date on the plant calendar. */
export const formatDateParam = (time: number, calendar: PlantCalendar) => calendar.dateOf(time);

/** Yesterday and last week compare days; any period can compare with a chosen date. */
export const yoyOptionsFor = (period: Period): YoyOption[] =>
  period === 'day' ? [...YOY_OPTIONS] : YOY_OPTIONS.filter((o) => o === 'none' || o === 'date');

export function parseDetailParams(
  params: URLSearchParams,
  calendar: PlantCalendar,
  now: number = Date.now(),
): DetailParams {
  const type = params.get('resourceType');
  const id = Number(params.get('resourceId'));
  const resource: ChartResource | null =
    (type === 'region' || type === 'thing') && Number.isInteger(id) && id > 0
      ? { resourceType: type, resourceId: id }
      : null;
  const period = (PERIODS as readonly string[]).includes(params.get('period') ?? '')
    ? (params.get('period') as Period)
    : 'day';
  const yoyParam = params.get('yoy') as YoyOption | null;
  const yoy = yoyParam && yoyOptionsFor(period).includes(yoyParam) ? yoyParam : 'none';
  return {
    resource,
    metric: params.get('metric') || null,
    period,
    date: parseDate(params.get('date'), calendar) ?? calendar.startOfDay(now),
    yoy,
    compare: parseDate(params.get('compare'), calendar),
  };
}
