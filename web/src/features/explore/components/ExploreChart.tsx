import type { AlarmSpan } from '@kilowatch/contract';
import { BrushComponent } from 'echarts/components';
import type { EChartsType } from 'echarts/core';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { alarmPath, clickedAlarm } from '../../../components/charts/alarm-marks.ts';
import { echarts } from '../../../components/charts/echarts.ts';
import { buildCartesianOption, type ChartOption } from '../../../components/charts/options.ts';
import type { ChartSeries } from '../../../components/charts/series.ts';
import { useChartTheme } from '../../../components/charts/use-chart-theme.ts';
import { usePlantCalendar } from '../../../lib/plant-calendar.ts';

// The drag-to-zoom selection: only this screen draws one, so only it registers ECharts' brush.
echarts.use([BrushComponent]);

/**
 * The panels' ECharts group: `echarts.connect` mirrors the axis pointer and tooltip of the panel
 * under the mouse on every other panel (the shared crosshair), and each panel's brush too.
 */
const EXPLORE_GROUP = 'kw-explore';

/** Room for the y axes, the same on every panel, so their time axes line up one above another. */
export interface PanelGrid {
  left: number;
  right: number;
}

const AXIS_ROOM = 64;
const EXTRA_AXIS = 50;

/** The margins every panel takes: room for the most y axes (units) any panel has on either side. */
export function panelGrid(unitCounts: readonly number[]): PanelGrid {
  const most = Math.max(1, ...unitCounts);
  const left = Math.ceil(most / 2);
  const right = Math.floor(most / 2);
  return {
    left: AXIS_ROOM + (left - 1) * EXTRA_AXIS,
    right: right ? AXIS_ROOM + (right - 1) * EXTRA_AXIS : 24,
  };
}

/** The chart option of a panel: the console's line chart, aligned margins and a horizontal brush. */
function panelOption(base: ChartOption, grid: PanelGrid): ChartOption {
  const own = (Array.isArray(base.grid) ? base.grid[0] : base.grid) ?? {};
  return {
    ...base,
    // Up to 8 panels redraw at every zoom and refresh: lines appear at once, as in Grafana.
    animation: false,
    // No zoom slider under a panel (a drag zooms): the axis labels need only their own line.
    grid: { ...own, left: grid.left, right: grid.right, bottom: 28, outerBoundsMode: 'none' },
    // A horizontal span dragged over the plot; its end zooms every panel (brushEnd below).
    brush: {
      xAxisIndex: 0,
      brushType: 'lineX',
      brushMode: 'single',
      transformable: false,
      throttleType: 'debounce',
      brushStyle: { color: 'rgba(64,158,255,0.15)', borderColor: '#409EFF', borderWidth: 1 },
      outOfBrush: { colorAlpha: 1 },
    },
    toolbox: { show: false },
  } as ChartOption;
}

/** Arms the brush so a plain drag draws it (no toolbox button to press first). */
const armBrush = (chart: EChartsType) =>
  chart.dispatchAction({
    type: 'takeGlobalCursor',
    key: 'brush',
    brushOption: { brushType: 'lineX', brushMode: 'single' },
  });

export interface ExploreChartProps {
  series: ChartSeries[];
  window: { start: number; end: number };
  grid: PanelGrid;
  alarms?: readonly AlarmSpan[];
  loading?: boolean;
  height?: number;
  /** A span dragged over the plot, in ms (either order). */
  onZoom: (start: number, end: number) => void;
}

/** One Explore panel's chart: lines over the shared range, alarm marks, drag-to-zoom, crosshair. */
export function ExploreChart({
  series,
  window,
  grid,
  alarms,
  loading,
  height = 240,
  onZoom,
}: ExploreChartProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const theme = useChartTheme('full');
  const calendar = usePlantCalendar();
  const ref = useRef<ReactEChartsCore>(null);
  const alarmLabel = t('charts.alarms');
  const missingLabel = useCallback((names: string) => t('charts.missing', { names }), [t]);
  const incompleteLabel = t('charts.incomplete');
  const { start, end } = window;
  const option = useMemo(
    () =>
      panelOption(
        buildCartesianOption({
          series,
          kind: 'line',
          theme,
          incompleteLabel,
          missingLabel,
          legend: true,
          window: { start, end },
          calendar,
          alarms: alarms?.length ? { spans: alarms, label: alarmLabel, now: Date.now() } : undefined,
        }),
        grid,
      ),
    [series, theme, incompleteLabel, missingLabel, start, end, calendar, alarms, alarmLabel, grid],
  );

  // A new option replaces the brush component (notMerge): arm it again after every update.
  useEffect(() => {
    const chart = ref.current?.getEchartsInstance();
    if (chart && option) armBrush(chart);
  }, [option]);

  const onEvents = useMemo(
    () => ({
      brushEnd: (e: { areas?: { coordRange?: unknown }[] }) => {
        const range = e.areas?.[0]?.coordRange;
        if (Array.isArray(range) && typeof range[0] === 'number' && typeof range[1] === 'number')
          onZoom(range[0], range[1]);
      },
      click: (params: { componentType?: string; data?: unknown }) => {
        const alarm = clickedAlarm(params);
        if (alarm !== null) navigate(alarmPath(alarm));
      },
    }),
    [onZoom, navigate],
  );

  return (
    <ReactEChartsCore
      ref={ref}
      echarts={echarts}
      option={option}
      notMerge
      lazyUpdate
      showLoading={loading}
      onEvents={onEvents}
      onChartReady={(chart: EChartsType) => {
        chart.group = EXPLORE_GROUP;
        echarts.connect(EXPLORE_GROUP);
        armBrush(chart);
      }}
      style={{ height, width: '100%' }}
      data-testid="echart"
    />
  );
}
