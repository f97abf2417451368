import { ReloadOutlined } from '@ant-design/icons';
import { type QueryResult, TOP_DATA_CHUNK } from '@kilowatch/contract';
import {
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Empty,
  Row,
  Segmented,
  Select,
  Space,
  Statistic,
  Table,
  type TableColumnsType,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAlarmSpans } from '../../../api/alarms.ts';
import { plantTimeZone } from '../../../api/telemetry.ts';
import {
  allLineMetrics,
  buildSeries,
  ChartFigure,
  type ChartMetric,
  type ChartSeries,
  ExportMenu,
  type ExportSource,
  formatReading,
  formatValue,
  groupPoints,
  isConsumption,
  LineChart,
  MAX_CHART_METRICS,
  perBucketName,
  seriesSheet,
  seriesTable,
  summarize,
  type TableRow,
  useSheetLabels,
  useShownSeries,
} from '../../../components/charts/index.ts';
import { fromPicker, toPicker, usePlantCalendar } from '../../../lib/plant-calendar.ts';
import { useCounterSummary, useHistorySeries } from '../hooks/history.ts';
import { useResourceMetrics } from '../hooks/metrics.ts';
import { selectedThingIds } from '../lib/tree.ts';
import { HISTORY_HOURS, parseWindow, resolveWindow } from '../lib/window.ts';
import { MonitorLayout } from './MonitorLayout.tsx';
import { useMonitor } from './use-monitor.ts';

/** How many metrics the history chart starts with (more can be added, up to 9). */
const DEFAULT_HISTORY_METRICS = 3;

type View = 'chart' | 'table';

/**
 * /energy_monitor/history: the selected resource over the last N hours (default 1) or a chosen
 * range; several metrics on one chart with a y axis per unit, a total line for SUM metrics,
 * dashed incomplete buckets, the counters as numbers, and a table view in chunks of 10.
 */
export default function HistoryScreen() {
  const { t } = useTranslation();
  // Times are the plant's wall clock; the pickers work in the browser's zone and are translated.
  const calendar = usePlantCalendar();
  const ctx = useMonitor();
  const { selection, node, categoryId, params, update } = ctx;
  const resource = useResourceMetrics(selection, node, categoryId);
  const window = useMemo(() => parseWindow(params), [params]);
  // "Last N hours" ends when the view opened or the user refreshed; a range is fixed.
  const [anchor, setAnchor] = useState(() => Date.now());
  const range = useMemo(() => resolveWindow(window, anchor), [window, anchor]);
  const [view, setView] = useState<View>('chart');

  const options = useMemo(
    () => allLineMetrics(resource.configs, resource.sources),
    [resource.configs, resource.sources],
  );
  const chosenParam = params.get('metrics');
  const chosen = useMemo(() => {
    const ids = chosenParam?.split(',').filter(Boolean);
    if (ids?.length) return options.filter((m) => ids.includes(m.identifier)).slice(0, MAX_CHART_METRICS);
    const first = resource.metrics.length ? resource.metrics : options;
    return first.slice(0, DEFAULT_HISTORY_METRICS);
  }, [options, resource.metrics, chosenParam]);

  const results = useHistorySeries(selection, chosen, range, categoryId);
  // The alarms of the resource's devices over the range, marked on the chart (a click opens one).
  const things = useMemo(() => selectedThingIds(selection, node), [selection, node]);
  const alarms = useAlarmSpans(things, range.start, range.end);
  const summaries = useCounterSummary(selection, resource.counters, range, categoryId);
  const series = useMemo(
    () =>
      chosen.flatMap((metric, i) => {
        const answer = results.answers[i];
        if (!answer) return [];
        const several = chosen.length > 1;
        // Consumption comes per bucket (the server names the width it picked): so does its name.
        const name =
          isConsumption(metric) && answer.bucket ? perBucketName(t, metric.name, answer.bucket) : metric.name;
        return buildSeries(answer.result, {
          name,
          aggregator: metric.aggregator,
          color: metric.color,
          unit: metric.unit || answer.unit,
          totalName: several ? `${name} · ${t('charts.total')}` : t('charts.total'),
          label: (g) => (several ? `${name} · ${g}` : g),
          counter: metric.cumulative,
        });
      }),
    [chosen, t, results.answers],
  );
  const loading = results.fetching;
  const shown = useShownSeries(series);
  const timeZone = results.answers.find((a) => a?.timeZone)?.timeZone;
  const labels = useSheetLabels();
  const chartBox = useRef<HTMLDivElement>(null);
  const title = node
    ? `${node.name} ${t('monitoring.exportColumns.history')}`
    : t('monitoring.exportColumns.history');
  // What is on screen: the chart's series (top-N past 10) or every series of the table.
  const exportSource: ExportSource = {
    title,
    timeZone,
    sheet: () => seriesSheet(title, view === 'chart' ? shown : series, labels, timeZone || plantTimeZone()),
    ...(view === 'chart' ? { chart: () => chartBox.current } : {}),
  };

  return (
    <MonitorLayout ctx={ctx}>
      {!selection ? (
        <Card>
          <Empty description={ctx.tree.isPending ? t('monitoring.loading') : t('monitoring.noResource')} />
        </Card>
      ) : (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Card size="small" title={node?.name ?? `#${selection.resourceId}`}>
            <Space wrap>
              <Select<number>
                aria-label={t('monitoring.history.lastHours')}
                style={{ width: 140 }}
                value={window.kind === 'hours' ? window.hours : undefined}
                placeholder={t('monitoring.history.lastHours')}
                options={HISTORY_HOURS.map((h) => ({
                  value: h,
                  label: t('monitoring.history.hours', { count: h }),
                }))}
                onChange={(hours) => {
                  setAnchor(Date.now());
                  update({ hours, start: null, end: null });
                }}
              />
              <DatePicker.RangePicker
                showTime={{ format: 'HH:mm' }}
                format="YYYY-MM-DD HH:mm"
                style={{ width: 360, maxWidth: '100%' }}
                aria-label={t('monitoring.history.range')}
                value={
                  window.kind === 'range'
                    ? [toPicker(calendar, window.start), toPicker(calendar, window.end)]
                    : null
                }
                onChange={(values) => {
                  const [from, to] = (values ?? []) as (Dayjs | null)[];
                  if (from && to)
                    update({ start: fromPicker(calendar, from), end: fromPicker(calendar, to), hours: null });
                  else update({ start: null, end: null });
                }}
              />
              <Button
                icon={<ReloadOutlined />}
                onClick={() => setAnchor(Date.now())}
                aria-label={t('monitoring.history.refresh')}
              >
                {t('monitoring.history.refresh')}
              </Button>
              <Select<string[]>
                mode="multiple"
                aria-label={t('monitoring.history.metrics')}
                style={{ minWidth: 260 }}
                maxCount={MAX_CHART_METRICS}
                placeholder={t('monitoring.history.metrics')}
                value={chosen.map((m) => m.identifier)}
                options={options.map((m) => ({
                  value: m.identifier,
                  label: m.unit ? `${m.name} (${m.unit})` : m.name,
                }))}
                onChange={(ids) => update({ metrics: ids.join(',') || null })}
              />
              <Segmented<View>
                value={view}
                onChange={setView}
                options={[
                  { value: 'chart', label: t('monitoring.history.chart') },
                  { value: 'table', label: t('monitoring.history.table') },
                ]}
              />
            </Space>
            <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }} data-testid="history-range">
              {calendar.format(range.start, 'YYYY-MM-DD HH:mm')} ~{' '}
              {calendar.format(range.end, 'YYYY-MM-DD HH:mm')}
            </Typography.Paragraph>
          </Card>
          {resource.counters.length ? (
            <CounterStrip counters={resource.counters} answers={summaries.answers} />
          ) : null}
          <Card
            size="small"
            title={view === 'chart' ? t('monitoring.history.chart') : t('monitoring.history.table')}
            extra={<ExportMenu source={exportSource} disabled={!series.some((s) => s.points.length)} />}
            data-testid="history-view"
          >
            {!chosen.length ? (
              <Empty description={t('monitoring.noMetrics')} />
            ) : view === 'chart' ? (
              <>
                <div ref={chartBox}>
                  <ChartFigure label={title} count={shown.length}>
                    <LineChart
                      series={shown}
                      zoom
                      loading={loading}
                      window={range}
                      incompleteLabel={t('charts.incomplete')}
                      alarms={alarms.data}
                    />
                  </ChartFigure>
                </div>
                {series.some((s) => s.points.some((p) => !p.complete)) && (
                  <Alert type="info" showIcon title={t('charts.incompleteHint')} style={{ marginTop: 8 }} />
                )}
              </>
            ) : (
              <HistoryTable series={series} />
            )}
          </Card>
        </Space>
      )}
    </MonitorLayout>
  );
}

function CounterStrip({
  counters,
  answers,
}: {
  counters: ChartMetric[];
  answers: (QueryResult | undefined)[];
}) {
  return (
    <Card size="small">
      <Row gutter={16}>
        {counters.map((c, i) => {
          const points = [...groupPoints(answers[i]?.result ?? []).values()].flat();
          return (
            <Col key={c.identifier} xs={12} md={6}>
              <Statistic
                title={c.name}
                value={formatReading(summarize(points, c.aggregator), c.unit)}
                suffix={c.unit}
                data-testid={`counter-${c.identifier}`}
              />
            </Col>
          );
        })}
      </Row>
    </Card>
  );
}

/** Rows a page of the history table can show; 10 first (spec §9). */
const HISTORY_PAGE_SIZES = [TOP_DATA_CHUNK, 50, 100, 500];

/**
 * The series as a table, newest first (what an engineer looks for), 10 points a page (spec §9)
 * or more, 2 decimals; "-" for no data and "*" for incomplete, both explained under the table.
 */
function HistoryTable({ series }: { series: ChartSeries[] }) {
  const { t } = useTranslation();
  const calendar = usePlantCalendar();
  const rows = useMemo(() => seriesTable(series).reverse(), [series]);
  const [pageSize, setPageSize] = useState<number>(TOP_DATA_CHUNK);
  const columns: TableColumnsType<TableRow> = [
    {
      title: t('monitoring.history.time'),
      dataIndex: 'key',
      width: 180,
      render: (key: number) => calendar.format(key, 'YYYY-MM-DD HH:mm:ss'),
    },
    ...series.map((s) => ({
      title: s.unit ? `${s.name} (${s.unit})` : s.name,
      key: s.name,
      render: (_: unknown, row: TableRow) => {
        const p = row.values[s.name];
        if (!p || p.value === null)
          return (
            <Typography.Text type="secondary" title={t('monitoring.history.noValue')}>
              -
            </Typography.Text>
          );
        return p.complete ? (
          formatValue(p.value)
        ) : (
          <Typography.Text type="warning" title={t('charts.incomplete')}>
            {formatValue(p.value)}*
          </Typography.Text>
        );
      },
    })),
  ];
  return (
    <Table<TableRow>
      size="small"
      rowKey="key"
      columns={columns}
      dataSource={rows}
      footer={() => (
        <Typography.Text type="secondary" data-testid="history-legend">
          {t('monitoring.history.legend')}
        </Typography.Text>
      )}
      pagination={{
        pageSize,
        showSizeChanger: true,
        pageSizeOptions: HISTORY_PAGE_SIZES,
        onShowSizeChange: (_, size) => setPageSize(size),
        showTotal: (n) => t('monitoring.history.points', { count: n }),
      }}
      scroll={{ x: true }}
    />
  );
}
