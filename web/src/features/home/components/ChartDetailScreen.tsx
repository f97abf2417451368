import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, DatePicker, Empty, Segmented, Select, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useTargetAlarmSpans } from '../../../api/alarms.ts';
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
  LineChart,
  type Period,
  paletteColor,
  seriesSheet,
  useSheetLabels,
  useShownSeries,
  withUnit,
  type YoyOption,
  yoyCompare,
} from '../../../components/charts/index.ts';
import { usePlantCalendar } from '../../../lib/plant-calendar.ts';
import { useSearchPatch } from '../../../lib/search-patch.ts';
import { useAllSources, usePeriodData } from '../hooks/home.ts';
import { formatDateParam, parseDetailParams, yoyOptionsFor } from '../lib/detail-params.ts';
import { chartKind, periodQuery } from '../lib/period-query.ts';

const PICKER: Record<Period, 'date' | 'month' | 'year'> = { day: 'date', month: 'month', year: 'year' };
const DATE_PARAM = 'YYYY-MM-DD';

/**
 * /home/chartdetail: one metric large, by day (HH:00), month (MM-DD) or year (YYYY-MM), with a
 * date picker and a year-on-year comparison (yesterday -24 h, last week -168 h, or a chosen
 * date) drawn on the same axis. Dates, periods and the comparison are the plant's: the server
 * answers the comparison on its calendar, keyed on the shown period's buckets.
 */
export default function ChartDetailScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, patchParams] = useSearchPatch();
  const calendar = usePlantCalendar();
  const state = useMemo(() => parseDetailParams(params, calendar), [params, calendar]);
  const { resource, period, date, yoy, compare } = state;
  const configs = useQuery(metricConfigsQuery(resource ? { ...resource, categoryId: null } : null));
  const sources = useAllSources(configs.isSuccess);
  const metric: ChartMetric | null = useMemo(() => {
    if (!state.metric) return null;
    const list = configs.data ?? [];
    const index = list.findIndex((c) => c.metricIdentifier === state.metric);
    if (index >= 0) return configMetric(list[index]!, index);
    // Without a config the home card showed the ability's own name: so does its detail.
    const ability = sources.find((s) => s.identifier === state.metric);
    return {
      identifier: state.metric,
      name: ability?.name ?? state.metric,
      unit: ability?.unit ?? '',
      aggregator: ability?.aggregator ?? 'avg',
      color: paletteColor(0),
      ...(ability?.cumulative ? { cumulative: true } : {}),
    };
  }, [configs.data, sources, state.metric]);

  const comparison = useMemo(
    () => yoyCompare(yoy, period, date, compare, calendar),
    [yoy, period, date, compare, calendar],
  );
  // A metric without a config is read with its ability's aggregator: wait for the abilities.
  const configured = (configs.data ?? []).some((c) => c.metricIdentifier === state.metric);
  const ready = !configs.isPending && (configured || sources.length > 0);
  const baseQuery = useMemo(
    () =>
      resource && metric && ready ? periodQuery(resource, metric, period, date, calendar, comparison) : null,
    [resource, metric, period, date, calendar, comparison, ready],
  );
  const base = usePeriodData(baseQuery);
  // The alarms of the resource's devices over the shown period, marked on its buckets.
  const shownRange = calendar.periodRange(period, date);
  const alarms = useTargetAlarmSpans(resource, shownRange.start, shownRange.end);

  const compareLabel =
    yoy === 'date' && compare !== null ? formatDateParam(compare, calendar) : t(`home.detail.yoy.${yoy}`);
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
    // The server keys the comparison on the shown period's buckets: they share its axis labels.
    const other = base.data?.compare;
    if (!comparison || !other) return main;
    const moved = buildSeries(other.result, {
      ...options,
      name: `${metric.name} (${compareLabel})`,
      color: paletteColor(3),
    }).map((s) => ({ ...s, compare: true }));
    return [...main, ...moved];
  }, [metric, base.data, comparison, compareLabel, t]);

  const shown = useShownSeries(series);
  const labels = useSheetLabels();
  const chartBox = useRef<HTMLDivElement>(null);

  // The pickers work in the browser's zone: they show the plant's date as a local one.
  const pickerValue = (time: number) => dayjs(calendar.dateOf(time));
  const set = patchParams;

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
    title: `${title} ${formatDateParam(date, calendar)}`,
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
          value={pickerValue(date)}
          onChange={(d: Dayjs | null) => d && set({ date: d.format(DATE_PARAM) })}
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
            value={compare !== null ? pickerValue(compare) : null}
            onChange={(d: Dayjs | null) => set({ compare: d ? d.format(DATE_PARAM) : null })}
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
            alarms={alarms.data}
          />
        </ChartFigure>
      </div>
    </Card>
  );
}
