import type { AlarmSpan, Severity } from '@kilowatch/contract';
import type { LineSeriesOption } from 'echarts/charts';
import { colorDot, type Html, html } from '../../lib/html.ts';

/**
 * The alarms of a chart's things drawn on its time axis (docs/alarms.md, "Alarms on charts"): each
 * alarm shaded from its raise to its return (or to now while active, clipped to the window), and a
 * vertical mark at the raise. Both carry the alarm's id: a click opens it. The marks' labels are
 * drawn as text by ECharts; the chart's axis tooltip lists the alarms standing at the hovered time
 * (`alarmTipLines`), as HTML built only through lib/html.ts, so a rule named `<img onerror=…>`
 * shows as typed.
 */

const SEVERITY_COLOURS: Record<Severity, string> = {
  critical: '#a8071a',
  major: '#f5222d',
  minor: '#fa8c16',
  warning: '#d4b106',
};

/** The alarm marks' own series: its name in the legend toggles them. */
export interface AlarmMarkLabels {
  series: string;
}

/** The words of the alarm lines of a tooltip: severity names, a time as the chart reads it, "not returned". */
export interface AlarmTipWords {
  severity: Record<Severity, string>;
  time: (ms: number) => string;
  active: string;
}

/**
 * A category axis of buckets (a day by hours, a month by days, a trend by quarter hours): the
 * bucket starts, sorted, and the category each is drawn as. Marks fall on the bucket holding the
 * alarm's time; a time axis needs none.
 */
export interface AlarmMarkBuckets {
  starts: readonly number[];
  label: (start: number) => string;
}

/** Index of the bucket holding `ms` (the last start at or before it), -1 before the first. */
function bucketIndex(starts: readonly number[], ms: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((starts[mid] as number) <= ms) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** What a click on a mark carries. */
interface AlarmMarkData {
  alarmId: number;
}

/** Rule names label the marks only while few enough not to pile up. */
const NAMED_UP_TO = 6;

export function alarmMarksSeries(
  spans: readonly AlarmSpan[],
  window: { start: number; end: number },
  now: number,
  labels: AlarmMarkLabels,
  buckets?: AlarmMarkBuckets,
): LineSeriesOption | null {
  const shown = spans.filter((a) => a.alarmAt < window.end);
  if (shown.length === 0) return null;
  const named = shown.length <= NAMED_UP_TO;
  // On a time axis a mark sits at its time; on buckets, on the bucket holding it (an area at least
  // one bucket wide, so a short alarm still shows). An area reaching into the last bucket has no
  // next bucket to end at: it runs to the axis's end (ECharts reads a missing end as the axis's
  // extent), where it would otherwise be drawn with no width, the newest alarm out of reach.
  const at = (ms: number, endOfArea = false): number | string | undefined => {
    if (!buckets) return ms;
    const last = buckets.starts.length - 1;
    const i = Math.max(0, bucketIndex(buckets.starts, endOfArea ? ms - 1 : ms));
    if (endOfArea && i >= last) return undefined;
    return buckets.label(buckets.starts[endOfArea ? i + 1 : i] as number);
  };
  const areas = shown.flatMap((a) => {
    const over = a.returnedAt ?? (a.active ? now : a.alarmAt);
    const from = Math.max(a.alarmAt, window.start);
    const to = Math.min(over, window.end);
    if (to <= from || (buckets && buckets.starts.length === 0)) return [];
    const colour = SEVERITY_COLOURS[a.severity];
    return [
      [
        { alarmId: a.id, xAxis: at(from), itemStyle: { color: colour, opacity: 0.12 } },
        { alarmId: a.id, xAxis: at(to, true) },
      ],
    ];
  });
  const raises = shown
    .filter((a) => a.alarmAt >= window.start && (!buckets || buckets.starts.length > 0))
    .map((a) => ({
      alarmId: a.id,
      name: named ? `${a.thingName} ${a.ruleName}` : '',
      xAxis: at(a.alarmAt),
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
      // Along the line on its right, from the top, cut to 120 px: on its left a mark at the axis's
      // start wrote over the y-axis labels, and a long device and rule name ran under the x axis.
      label: {
        show: named,
        formatter: '{b}',
        position: 'insideEndBottom',
        fontSize: 11,
        width: 120,
        overflow: 'truncate',
      },
      data: raises as never,
    },
  };
}

/** Alarm lines a tooltip shows before summing up the rest. */
const TIP_ALARMS = 5;

/**
 * The alarms standing at some time in [from, to) (a hovered bucket, or the moment under the
 * pointer): raised before its end and not returned before its start.
 */
export function alarmsWithin(
  spans: readonly AlarmSpan[],
  from: number,
  to: number,
  now: number,
): AlarmSpan[] {
  return spans.filter((a) => {
    const over = a.returnedAt ?? (a.active ? now : a.alarmAt);
    return a.alarmAt < to && over >= from;
  });
}

/**
 * The tooltip lines of alarms, newest first: device · rule, severity and when, each escaped
 * (html`…`); past TIP_ALARMS, a count of the others.
 */
export function alarmTipLines(spans: readonly AlarmSpan[], words: AlarmTipWords): Html[] {
  // The newest first: the one just raised is the one looked for.
  const newest = [...spans].sort((a, b) => b.alarmAt - a.alarmAt);
  const lines = newest.slice(0, TIP_ALARMS).map((a) => {
    const until = a.returnedAt !== null ? words.time(a.returnedAt) : a.active ? words.active : '';
    return html`${colorDot(SEVERITY_COLOURS[a.severity])}${a.thingName} · ${a.ruleName} (${words.severity[a.severity]}, ${words.time(a.alarmAt)}${until ? ` – ${until}` : ''})`;
  });
  if (spans.length > TIP_ALARMS) lines.push(html`… (+${spans.length - TIP_ALARMS})`);
  return lines;
}

/**
 * The alarm lines of a hovered bucket of a category axis (the axis value is its label): the alarms
 * standing in that bucket, which runs to the next start (the last to `end`).
 */
export function bucketAlarmLines(
  spans: readonly AlarmSpan[],
  words: AlarmTipWords,
  now: number,
  buckets: AlarmMarkBuckets,
  end: number,
): (axisValue: unknown) => Html[] {
  const index = new Map(buckets.starts.map((k, i) => [buckets.label(k), i] as const));
  return (value) => {
    const i = index.get(String(value));
    if (i === undefined) return [];
    const from = buckets.starts[i] as number;
    const to = buckets.starts[i + 1] ?? end;
    return alarmTipLines(alarmsWithin(spans, from, to, now), words);
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
