import type { PlantCalendar } from '@kilowatch/contract';
import { timeAxisLabels, timeLabelFormatter } from '../../../components/charts/index.ts';

interface AxisParam {
  value: [number, number];
  marker: string;
  seriesName: string;
}

/**
 * A time axis and its tooltip read on the plant's calendar, like the monitoring charts: ECharts
 * labels a time axis in the browser's zone, which is not the plant's when the engineer is away.
 */
export function plantTimeAxis(calendar: PlantCalendar, window: [number, number]) {
  const span = Math.max(0, window[1] - window[0]);
  return {
    xAxis: {
      type: 'time' as const,
      minInterval: timeAxisLabels(span).minInterval,
      axisLabel: { formatter: timeLabelFormatter(span, calendar), hideOverlap: true },
    },
    tooltip: {
      trigger: 'axis' as const,
      confine: true,
      formatter: (params: unknown) => {
        const list = (Array.isArray(params) ? params : [params]) as AxisParam[];
        const first = list[0];
        if (!first) return '';
        const rows = list.map((p) => `${p.marker}${p.seriesName}: ${p.value[1]}`);
        return [calendar.format(first.value[0], 'YYYY-MM-DD HH:mm:ss'), ...rows].join('<br/>');
      },
    },
  };
}
