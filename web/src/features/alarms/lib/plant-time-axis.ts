import type { PlantCalendar } from '@kilowatch/contract';
import { timeAxisLabels, timeLabelFormatter } from '../../../components/charts/index.ts';
import { colorDot, html, joinHtml, tooltipHtml } from '../../../lib/html.ts';

interface AxisParam {
  value: [number, number];
  color?: unknown;
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
      formatter: tooltipHtml((params: unknown) => {
        const list = (Array.isArray(params) ? params : [params]) as AxisParam[];
        const first = list[0];
        if (!first) return html``;
        const rows = list.map((p) => html`${colorDot(p.color)}${p.seriesName}: ${p.value[1]}`);
        return joinHtml([html`${calendar.format(first.value[0], 'YYYY-MM-DD HH:mm:ss')}`, ...rows]);
      }),
    },
  };
}
