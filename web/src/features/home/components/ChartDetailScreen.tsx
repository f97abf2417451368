import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, DatePicker, Empty, Segmented, Select, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { metricConfigsQuery } from '../../../api/metric-configs.ts';
import { plantTimeZone } from '../../../api/telemetry.ts';
import {
  BarChart,
  buildSeries,
  ChartFigure,
  type ChartMetric,
  type ChartSeries,
  configMetric,
  ExportMenu,
  type ExportSource,
  invertShift,
  LineChart,
  type Period,
  paletteColor,
  seriesSheet,
  shiftPoints,
  useSheetLabels,
  useShownSeries,
  withUnit,
  type YoyOption,
  yoyShift,
} from '../../../components/charts/index.ts';
import { usePeriodData } from '../hooks/home.ts';
import { formatDateParam, parseDetailParams, yoyOptionsFor } from '../lib/detail-params.ts';
import { chartKind, periodQuery } from '../lib/period-query.ts';

const PICKER: Record<Period, 'date' | 'month' | 'year'> = { day: 'date', month: 'month', year: 'year' };

/**
 * /home/chartdetail: one metric large, by day (HH:00), month (MM-DD) or year (YYYY-MM), with a
 * date picker and a year-on-year comparison (yesterday -24 h, last week -168 h, or a chosen
 * date) drawn on the same axis.
 */
export default function ChartDetailScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => parseDetailParams(params), [params]);
  const { resource, period, date, yoy, compare } = state;
  const configs = useQuery(metricConfigsQuery(resource ? { ...resource, categoryId: null } : null));
  const metric: ChartMetric | null = useMemo(() => {
    if (!state.metric) return null;
    const list = configs.data ?? [];
    const index = list.findIndex((c) => c.metricIdentifier === state.metric);
    if (index >= 0) return configMetric(list[index]!, index);
    return {
      identifier: state.metric,
      name: state.metric,
      unit: '',
      aggregator: 'avg',
      color: paletteColor(0),
    };
  }, [configs.data, state.metric]);

  const shift = useMemo(() => yoyShift(yoy, period, date, compare), [yoy, period, date, compare]);
  const baseQuery = useMemo(
    () => (resource && metric && !configs.isPending ? periodQuery(resource, metric, period, date) : null),
    [resource, metric, period, date, configs.isPending],
  );
  const compareQuery = useMemo(
    () =>
      baseQuery && shift && resource && metric ? periodQuery(resource, metric, period, date, shift) : null,
    [baseQuery, resource, metric, period, date, shift],
  );
  const base = usePeriodData(baseQuery);
  const comparison = usePeriodData(compareQuery);

  const compareLabel =
    yoy === 'date' && compare !== null ? formatDateParam(compare) : t(`home.detail.yoy.${yoy}`);
  const series = useMemo<ChartSeries[]>(() => {
    if (!metric) return [];
    const unit = metric.unit || base.data?.unit;
    const options = {
      name: metric.name,
      aggregator: metric.aggregator,
      color: metric.color,
      unit,
      totalName: t('charts.total'),
    };
    const main = buildSeries(base.data?.result ?? [], options);
    if (!shift || !comparison.data || !compareQuery) return main;
    // Comparison buckets moved forward by the same shift: they share the base axis labels.
    const moved = shiftPoints(comparison.data.result, invertShift(shift));
    const other = buildSeries(moved, {
      ...options,
      name: `${metric.name} (${compareLabel})`,
      color: paletteColor(3),
    }).map((s) => ({ ...s, compare: true }));
    return [...main, ...other];
  }, [metric, base.data, comparison.data, compareQuery, shift, compareLabel, t]);

  const shown = useShownSeries(series);
  const labels = useSheetLabels();
  const chartBox = useRef<HTMLDivElement>(null);

  const set = (change: Record<string, string | null>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(change)) {
          if (v === null) next.delete(k);
          else next.set(k, v);
        }
        return next;
      },
      { replace: true },
    );

  if (!resource || !metric) {
    return (
      <Card>
        <Empty description={t('home.detail.missing')}>
          <Button onClick={() => navigate('/home')}>{t('home.detail.back')}</Button>
        </Empty>
      </Card>
    );
  }

  const Chart = chartKind(metric) === 'bar' ? BarChart : LineChart;
  const title = withUnit(metric.name, metric.unit);
  const exportSource: ExportSource = {
    title: `${title} ${formatDateParam(date)}`,
    timeZone: base.data?.timeZone,
    sheet: () => seriesSheet(title, shown, labels, base.data?.timeZone || plantTimeZone()),
    chart: () => chartBox.current,
  };
  return (
    <Card
      extra={<ExportMenu source={exportSource} disabled={!shown.some((s) => s.points.length)} />}
      title={
        <Space>
          <Button
            type="text"
            icon={<ArrowLeftOutlined />}
            onClick={() => navigate('/home')}
            aria-label={t('home.detail.back')}
          />
          <span>{title}</span>
        </Space>
      }
    >
      <Space wrap style={{ marginBottom: 12 }}>
        <Segmented<Period>
          value={period}
          onChange={(p) =>
            set({ period: p, yoy: yoyOptionsFor(p).includes(yoy) ? yoy : null, compare: null })
          }
          options={(['day', 'month', 'year'] as const).map((p) => ({
            value: p,
            label: t(`home.detail.period.${p}`),
          }))}
        />
        <DatePicker
          picker={PICKER[period]}
          allowClear={false}
          aria-label={t('home.detail.date')}
          value={dayjs(date)}
          onChange={(d: Dayjs | null) => d && set({ date: formatDateParam(d.valueOf()) })}
        />
        <Select<YoyOption>
          style={{ width: 160 }}
          aria-label={t('home.detail.compare')}
          value={yoy}
          onChange={(v) => set({ yoy: v === 'none' ? null : v })}
          options={yoyOptionsFor(period).map((o) => ({ value: o, label: t(`home.detail.yoy.${o}`) }))}
        />
        {yoy === 'date' && (
          <DatePicker
            picker={PICKER[period]}
            aria-label={t('home.detail.compareDate')}
            value={compare !== null ? dayjs(compare) : null}
            onChange={(d: Dayjs | null) => set({ compare: d ? formatDateParam(d.valueOf()) : null })}
          />
        )}
      </Space>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('home.detail.refresh')}
      </Typography.Paragraph>
      <div ref={chartBox}>
        <ChartFigure label={title} count={shown.length}>
          <Chart
            series={shown}
            period={{ period, time: date }}
            loading={base.isPending && baseQuery !== null}
            incompleteLabel={t('charts.incomplete')}
            legend
          />
        </ChartFigure>
      </div>
    </Card>
  );
}
