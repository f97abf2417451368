import type { AlarmSpan, Severity } from '@kilowatch/contract';
import type { LineSeriesOption } from 'echarts/charts';

/**
 * The alarms of a chart's things drawn on its time axis (docs/alarms.md, "Alarms on charts"): each
 * alarm shaded from its raise to its return (or to now while active, clipped to the window), and a
 * vertical mark at the raise. Both carry the alarm's id: a click opens it. Drawn as text by ECharts
 * (no HTML), so the names of rules and things need no escaping here.
 */

export const SEVERITY_COLOURS: Record<Severity, string> = {
  critical: '#a8071a',
  major: '#f5222d',
  minor: '#fa8c16',
  warning: '#d4b106',
};

/** The alarm marks' own series: its name in the legend toggles them. */
export interface AlarmMarkLabels {
  series: string;
}

/** What a click on a mark carries. */
export interface AlarmMarkData {
  alarmId: number;
}

/** Rule names label the marks only while few enough not to pile up. */
const NAMED_UP_TO = 6;

export function alarmMarksSeries(
  spans: readonly AlarmSpan[],
  window: { start: number; end: number },
  now: number,
  labels: AlarmMarkLabels,
): LineSeriesOption | null {
  const shown = spans.filter((a) => a.alarmAt < window.end);
  if (shown.length === 0) return null;
  const named = shown.length <= NAMED_UP_TO;
  const areas = shown.flatMap((a) => {
    const over = a.returnedAt ?? (a.active ? now : a.alarmAt);
    const from = Math.max(a.alarmAt, window.start);
    const to = Math.min(over, window.end);
    if (to <= from) return [];
    const colour = SEVERITY_COLOURS[a.severity];
    return [
      [
        { alarmId: a.id, xAxis: from, itemStyle: { color: colour, opacity: 0.12 } },
        { alarmId: a.id, xAxis: to },
      ],
    ];
  });
  const raises = shown
    .filter((a) => a.alarmAt >= window.start)
    .map((a) => ({
      alarmId: a.id,
      name: named ? `${a.thingName} ${a.ruleName}` : '',
      xAxis: a.alarmAt,
      lineStyle: { color: SEVERITY_COLOURS[a.severity] },
    }));
  return {
    type: 'line',
    name: labels.series,
    data: [],
    itemStyle: { color: SEVERITY_COLOURS.major },
    // The marks sit on the first axes whatever the chart's other series.
    xAxisIndex: 0,
    yAxisIndex: 0,
    markArea: { data: areas as never, emphasis: { disabled: true } },
    markLine: {
      symbol: ['none', 'triangle'],
      symbolSize: 8,
      lineStyle: { type: 'solid', width: 1.5 },
      label: { show: named, formatter: '{b}', position: 'insideEndTop', fontSize: 11 },
      data: raises as never,
    },
  };
}

/** The alarm a click on the chart hit, if it hit a mark. */
export function clickedAlarm(params: { componentType?: string; data?: unknown }): number | null {
  if (params.componentType !== 'markArea' && params.componentType !== 'markLine') return null;
  const id = (params.data as Partial<AlarmMarkData> | undefined)?.alarmId;
  return typeof id === 'number' ? id : null;
}

/** Where a clicked alarm opens: its drawer in the alarm history. */
export const alarmPath = (id: number) => `/alarm_center/alarm_history?id=${id}`;
