import {
  type AlarmHealth,
  FLOOD_ALARMS,
  HEALTH_MAX_RANGE_MS,
  HEALTH_PERIOD_MS,
  PlantCalendar,
} from '@kilowatch/contract';
import type { ChartOption } from '../../../components/charts/index.ts';

/** The longest range the health report takes, in days (the server refuses more). */
export const HEALTH_MAX_DAYS = HEALTH_MAX_RANGE_MS / 86_400_000;

export interface HealthRange {
  /** Plant dates, `YYYY-MM-DD`, both included. */
  from: string;
  to: string;
  /** [start, end) in ms: from the plant's midnight of `from` to the one after `to`. */
  start: number;
  end: number;
}

/**
 * The health tab's range from the address (`from`, `to`: plant dates, both included): today on the
 * plant's calendar when absent, malformed, backwards or longer than the server takes.
 */
export function healthRangeOf(search: URLSearchParams, calendar: PlantCalendar, now: number): HealthRange {
  const from = PlantCalendar.dayOfDate(search.get('from') ?? '');
  const to = PlantCalendar.dayOfDate(search.get('to') ?? '');
  if (from === null || to === null || to < from || to - from + 1 > HEALTH_MAX_DAYS) {
    const today = calendar.dayOf(now);
    return rangeOfDays(calendar, today, today);
  }
  return rangeOfDays(calendar, from, to);
}

export function rangeOfDays(calendar: PlantCalendar, from: number, to: number): HealthRange {
  const start = calendar.dayStart(from);
  const end = calendar.dayStart(to + 1);
  return { from: calendar.dateOf(start), to: calendar.dateOf(end - 1), start, end };
}

/** Alarms per 10-minute period as bars (a flood's in red) under the flood line at 10. */
export function healthChartOption(
  health: Pick<AlarmHealth, 'periods' | 'startTime'>,
  labels: { alarms: string; flood: string },
  format: (ms: number) => string,
): ChartOption {
  return {
    animation: false,
    grid: { left: 48, right: 24, top: 32, bottom: 64 },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      valueFormatter: (v: unknown) => String(v),
    },
    xAxis: {
      type: 'category',
      data: health.periods.map((_, i) => format(health.startTime + i * HEALTH_PERIOD_MS)),
      axisTick: { alignWithLabel: true },
    },
    yAxis: { type: 'value', minInterval: 1, name: labels.alarms },
    dataZoom: [{ type: 'inside' }, { type: 'slider', height: 20, bottom: 8 }],
    series: [
      {
        name: labels.alarms,
        type: 'bar',
        barMaxWidth: 16,
        data: health.periods.map((n) => ({
          value: n,
          itemStyle: { color: n > FLOOD_ALARMS ? '#cf1322' : '#1677ff' },
        })),
        markLine: {
          silent: true,
          symbol: 'none',
          lineStyle: { color: '#cf1322', type: 'dashed' },
          label: { formatter: labels.flood, position: 'insideEndTop' },
          data: [{ yAxis: FLOOD_ALARMS }],
        },
      },
    ],
  } as ChartOption;
}

/** A share of the total, 0…1, as a percent with one decimal. */
export const percent = (share: number) => `${(Math.round(share * 1000) / 10).toFixed(1)} %`;

/** How long from `from` to `to`, ms, as hours (one decimal) for the standing alarms. */
export const hoursBetween = (from: number, to: number) => Math.round((to - from) / 360_000) / 10;
