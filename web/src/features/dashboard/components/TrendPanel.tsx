import type { MetricQuery, Overview, QueryResult } from '@kilowatch/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useTargetAlarmSpans } from '../../../api/alarms.ts';
import { keys } from '../../../api/keys.ts';
import { fetchMetricData } from '../../../api/telemetry.ts';
import {
  buildCartesianOption,
  buildSeries,
  type ChartSeries,
  type ChartTheme,
  EChart,
  paletteColor,
  useAlarmMarkClick,
  useAlarmMarkWords,
} from '../../../components/charts/index.ts';
import { usePlantCalendar } from '../../../lib/plant-calendar.ts';
import styles from './dashboard.module.css';

/** Trends change slowly: a minute between reads keeps the server's load flat with many walls. */
const TREND_POLL_MS = 60_000;

/**
 * The trend panels' plots are some 50 px tall: ECharts' default five splits cram six or seven
 * value labels into them. Two splits from zero leave three readable ones (a scaled axis would
 * pick its own finer steps).
 */
export function fewValueLabels<O extends { yAxis?: unknown }>(option: O): O {
  const axes = Array.isArray(option.yAxis) ? option.yAxis : option.yAxis ? [option.yAxis] : [];
  return { ...option, yAxis: axes.map((axis: object) => ({ ...axis, scale: false, splitNumber: 2 })) };
}

function useTrend(query: MetricQuery | null) {
  return useQuery({
    queryKey: query ? keys.telemetry.data(query) : keys.telemetry.idle('dashboard-trend'),
    queryFn: ({ signal }) => fetchMetricData(query!, { signal }),
    enabled: query !== null,
    refetchInterval: TREND_POLL_MS,
    placeholderData: keepPreviousData,
    // A 422 (the plant has no such metric) is an answer, not a reason to retry.
    retry: false,
  });
}

function useSeries(answer: QueryResult | undefined, unit: string, counter: boolean): ChartSeries[] {
  const { t } = useTranslation();
  return useMemo(() => {
    if (!answer) return [];
    const options = {
      name: t('dashboard.trend.today'),
      unit,
      totalName: t('dashboard.trend.today'),
      counter,
    };
    const today = buildSeries(answer.result, { ...options, color: paletteColor(0) });
    const yesterday = buildSeries(answer.compare?.result ?? [], {
      ...options,
      name: t('dashboard.trend.yesterday'),
      color: '#8c8c8c',
    }).map((s) => ({ ...s, compare: true }));
    return [...today, ...yesterday];
  }, [answer, unit, counter, t]);
}

/**
 * The day's trends of the plant (the first root region and everything under it) on the plant
 * calendar, each beside yesterday's: power by quarter hour, energy by hour.
 */
export function TrendPanel({
  regionId,
  metrics,
  now,
  scale,
}: {
  regionId: number | null;
  /** The plant's power and energy metrics as the overview chose them (docs/dashboard.md). */
  metrics: Overview['metrics'] | null;
  now: number;
  scale: number;
}) {
  const { t } = useTranslation();
  const calendar = usePlantCalendar();
  const { start, end } = calendar.periodRange('day', now);
  const base =
    regionId === null ? null : { resourceType: 'region' as const, resourceId: regionId, successor: true };
  const yesterday = { shift: { amount: -1, unit: 'day' as const } };
  const power = useTrend(
    base && metrics?.power
      ? {
          ...base,
          metricIdentifier: metrics.power,
          groupByTime: 'minute',
          groupByInterval: 15,
          startTime: start,
          endTime: end,
          compare: yesterday,
        }
      : null,
  );
  const energy = useTrend(
    base && metrics?.energy
      ? {
          ...base,
          metricIdentifier: metrics.energy,
          period: 'day',
          groupByTime: 'hour',
          groupByInterval: 1,
          startTime: start,
          endTime: end,
          compare: yesterday,
        }
      : null,
  );
  // The plant's alarms today, on both trends (a click opens one).
  const spans = useTargetAlarmSpans(
    regionId === null ? null : { resourceType: 'region', resourceId: regionId },
    start,
    end,
  );
  const markWords = useAlarmMarkWords();
  const alarms = useMemo(
    () =>
      spans.data?.length
        ? { spans: spans.data, label: markWords.series, now: Date.now(), words: markWords.words }
        : undefined,
    [spans.data, markWords],
  );
  const onClick = useAlarmMarkClick();
  const powerSeries = useSeries(power.data, 'kW', false);
  const energySeries = useSeries(energy.data, 'kWh', true);

  const theme: ChartTheme = useMemo(
    () => ({
      height: Math.round(11 * 16 * scale),
      fontSize: Math.round(12 * scale),
      grid: {
        top: Math.round(32 * scale),
        right: Math.round(16 * scale),
        bottom: Math.round(8 * scale),
        left: Math.round(16 * scale),
      },
    }),
    [scale],
  );
  const powerOption = useMemo(
    () =>
      fewValueLabels({
        ...buildCartesianOption({
          series: powerSeries,
          theme,
          kind: 'line',
          window: { start, end },
          calendar,
          legend: true,
          alarms,
        }),
        backgroundColor: 'transparent',
      }),
    [powerSeries, theme, start, end, calendar, alarms],
  );
  const energyOption = useMemo(
    () =>
      fewValueLabels({
        ...buildCartesianOption({
          series: energySeries,
          theme,
          kind: 'bar',
          period: { period: 'day', time: start },
          calendar,
          legend: true,
          alarms,
        }),
        backgroundColor: 'transparent',
      }),
    [energySeries, theme, start, calendar, alarms],
  );

  return (
    <section className={styles.trends}>
      <div className={`${styles.panel} ${styles.trend}`} data-testid="trend-power">
        <h2 className={styles.panelTitle}>{t('dashboard.trend.power')}</h2>
        <EChart option={powerOption} height={theme.height} theme="dark" onClick={onClick} />
      </div>
      <div className={`${styles.panel} ${styles.trend}`} data-testid="trend-energy">
        <h2 className={styles.panelTitle}>{t('dashboard.trend.energy')}</h2>
        <EChart option={energyOption} height={theme.height} theme="dark" onClick={onClick} />
      </div>
    </section>
  );
}
