import { PERIODS } from '@kilowatch/contract';
import dayjs from 'dayjs';
import { type Period, YOY_OPTIONS, type YoyOption } from '../../../components/charts/period.ts';
import type { ChartResource } from './period-query.ts';

/** The chart detail's state in the address: /home/chartdetail?resourceType=&resourceId=&metric=&period=&date=&yoy=&compare= */
export interface DetailParams {
  resource: ChartResource | null;
  metric: string | null;
  period: Period;
  /** A time inside the shown period (ms). */
  date: number;
  yoy: YoyOption;
  /** The chosen comparison date (yoy 'date'). */
  compare: number | null;
}

const DATE_FORMAT = 'YYYY-MM-DD';

const parseDate = (v: string | null): number | null => {
  if (!v) return null;
  const d = dayjs(v);
  return d.isValid() ? d.valueOf() : null;
};

export const formatDateParam = (time: number) => dayjs(time).format(DATE_FORMAT);

/** Yesterday and last week compare days; any period can compare with a chosen date. */
export const yoyOptionsFor = (period: Period): YoyOption[] =>
  period === 'day' ? [...YOY_OPTIONS] : YOY_OPTIONS.filter((o) => o === 'none' || o === 'date');

export function parseDetailParams(params: URLSearchParams, now: number = Date.now()): DetailParams {
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
    date: parseDate(params.get('date')) ?? now,
    yoy,
    compare: parseDate(params.get('compare')),
  };
}
