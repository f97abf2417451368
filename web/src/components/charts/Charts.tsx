import type { AlarmSpan } from '@kilowatch/contract';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { type CSSProperties, useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { usePlantCalendar } from '../../lib/plant-calendar.ts';
import { type AlarmMarkLabels, type AlarmTipWords, alarmPath, clickedAlarm } from './alarm-marks.ts';
import { useShownSeries } from './ChartCard.tsx';
import { echarts } from './echarts.ts';
import {
  buildCartesianOption,
  buildPieOption,
  type CartesianInput,
  type ChartOption,
  type PieItem,
} from './options.ts';
import type { ChartSeries } from './series.ts';
import type { ChartVariant } from './theme.ts';
import { useChartTheme } from './use-chart-theme.ts';

// echarts-for-react's ESM core with the trimmed ECharts (STACK.md: the lib/ path breaks the build).

export interface EChartProps {
  option: ChartOption;
  height: number;
  loading?: boolean;
  /** Called with the clicked item's name and series (and, on a mark, its component and data). */
  onClick?: (params: {
    name?: string;
    seriesName?: string;
    value?: unknown;
    componentType?: string;
    data?: unknown;
  }) => void;
  style?: CSSProperties;
  className?: string;
  'data-testid'?: string;
  /** An ECharts theme by name (`dark` on the wall screen's dark page); the light default otherwise. */
  theme?: 'dark';
}

/** The one ECharts element of the console. `notMerge`: removed series really disappear. */
export function EChart({ option, height, loading, onClick, style, className, theme, ...rest }: EChartProps) {
  const onEvents = useMemo(() => (onClick ? { click: onClick } : undefined), [onClick]);
  return (
    <ReactEChartsCore
      echarts={echarts}
      theme={theme}
      option={option}
      notMerge
      lazyUpdate
      showLoading={loading}
      onEvents={onEvents}
      style={{ height, width: '100%', ...style }}
      className={className}
      data-testid={rest['data-testid'] ?? 'echart'}
    />
  );
}

export interface SeriesChartProps
  extends Omit<CartesianInput, 'theme' | 'series' | 'kind' | 'missingLabel' | 'alarms'> {
  series: ChartSeries[];
  variant?: ChartVariant;
  height?: number;
  loading?: boolean;
  onClick?: EChartProps['onClick'];
  /** The alarms of the chart's things (`useAlarmSpans`): marks on a time axis, a click opens one. */
  alarms?: readonly AlarmSpan[];
}

function CartesianChart(props: SeriesChartProps & { kind: 'line' | 'bar' }) {
  const { kind, variant, height, loading, period, incompleteLabel, zoom, legend, alarms } = props;
  const { t } = useTranslation();
  const onClick = useAlarmMarkClick(props.onClick);
  const calendar = usePlantCalendar();
  const words = useAlarmMarkWords();
  // Active alarms are drawn to the moment the marks were built.
  const marks = useMemo(
    () =>
      alarms?.length
        ? { spans: alarms, label: words.series, now: Date.now(), words: words.words }
        : undefined,
    [alarms, words],
  );
  const theme = useChartTheme(variant);
  // Every chart obeys the series limit; screens that export pass the same limited list in.
  const series = useShownSeries(props.series);
  const missingLabel = useCallback((names: string) => t('charts.missing', { names }), [t]);
  const windowStart = props.window?.start;
  const windowEnd = props.window?.end;
  const periodName = period?.period;
  const periodTime = period?.time;
  // Options are rebuilt only when the data changes: ECharts diffs big options deeply otherwise.
  const option = useMemo(
    () =>
      buildCartesianOption({
        series,
        kind,
        theme,
        incompleteLabel,
        zoom,
        legend,
        period: periodName && periodTime !== undefined ? { period: periodName, time: periodTime } : undefined,
        window:
          windowStart !== undefined && windowEnd !== undefined
            ? { start: windowStart, end: windowEnd }
            : undefined,
        missingLabel,
        calendar,
        alarms: marks,
      }),
    [
      marks,
      series,
      kind,
      theme,
      incompleteLabel,
      zoom,
      legend,
      periodName,
      periodTime,
      windowStart,
      windowEnd,
      missingLabel,
      calendar,
    ],
  );
  return <EChart option={option} height={height ?? theme.height} loading={loading} onClick={onClick} />;
}

/**
 * The words of the alarm marks (alarm-marks.ts) in the user's language: the legend entry that
 * toggles them and the alarm lines of the tooltip. For charts that build their own option too.
 */
export function useAlarmMarkWords(): AlarmMarkLabels & { words: AlarmTipWords } {
  const { t } = useTranslation();
  const calendar = usePlantCalendar();
  return useMemo(
    () => ({
      series: t('charts.alarms'),
      words: {
        severity: {
          critical: t('charts.alarmMark.critical'),
          major: t('charts.alarmMark.major'),
          minor: t('charts.alarmMark.minor'),
          warning: t('charts.alarmMark.warning'),
        },
        time: (ms: number) => calendar.format(ms, 'MM-DD HH:mm'),
        active: t('charts.alarmMark.active'),
      },
    }),
    [t, calendar],
  );
}

/**
 * A chart's click handler that opens a clicked alarm mark (its drawer in the alarm history) and
 * passes any other click on.
 */
export function useAlarmMarkClick(given?: EChartProps['onClick']): NonNullable<EChartProps['onClick']> {
  const navigate = useNavigate();
  return useCallback<NonNullable<EChartProps['onClick']>>(
    (params) => {
      const alarm = clickedAlarm(params);
      if (alarm !== null) navigate(alarmPath(alarm));
      else given?.(params);
    },
    [navigate, given],
  );
}

/** Lines over time (or over a calendar period); see `buildCartesianOption`. */
export const LineChart = (props: SeriesChartProps) => <CartesianChart {...props} kind="line" />;

/** Bars over time or a calendar period; large data switches to ECharts' `large` mode. */
export const BarChart = (props: SeriesChartProps) => <CartesianChart {...props} kind="bar" />;

export interface PieChartProps {
  items: PieItem[];
  ring?: boolean;
  variant?: ChartVariant;
  height?: number;
  loading?: boolean;
}

export function PieChart({ items, ring, variant, height, loading }: PieChartProps) {
  const theme = useChartTheme(variant);
  const option = useMemo(() => buildPieOption(items, theme, ring), [items, theme, ring]);
  return <EChart option={option} height={height ?? theme.height} loading={loading} />;
}
