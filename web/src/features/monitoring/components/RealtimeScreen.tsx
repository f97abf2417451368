import { SettingOutlined } from '@ant-design/icons';
import {
  type AlarmSpan,
  type Cabinet,
  MONITOR_REFRESH_MS,
  type QueryResult,
  REALTIME_WINDOW_MINUTES,
} from '@kilowatch/contract';
import { Button, Card, Col, Empty, Row, Skeleton, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAlarmSpans } from '../../../api/alarms.ts';
import {
  buildSeries,
  ChartCard,
  type ChartMetric,
  formatWithUnit,
  isConsumption,
  LineChart,
  leaveOutRunning,
  MetricSettingsDialog,
  perBucketName,
  summarize,
  todayName,
  useChartAbilities,
  useShownSeries,
  withUnit,
} from '../../../components/charts/index.ts';
import { ThingEventsButton } from '../../../components/events/ThingEventsButton.tsx';
import { CameraLink } from '../../../components/video/CameraLink.tsx';
import { useResourceMetrics } from '../hooks/metrics.ts';
import { useRealtimeSeries, useTickCabinets, useTodayTotals } from '../hooks/monitoring.ts';
import { useSeqTicker } from '../lib/seq.ts';
import type { Selection } from '../lib/tree.ts';
import { selectedThingIds } from '../lib/tree.ts';
import { realtimeWindow } from '../lib/window.ts';
import { CabinetGrid, CabinetOverview } from './CabinetGrid.tsx';
import { DeviceStatusPanel } from './DeviceStatusPanel.tsx';
import { MonitorLayout } from './MonitorLayout.tsx';
import { useMonitor } from './use-monitor.ts';

const NO_CABINETS: Cabinet[] = [];
const MINUTE_BUCKET = { groupByTime: 'minute', groupByInterval: 1 } as const;

/**
 * /energy_monitor/realtime: the last 5 minutes of the selected resource's metrics, one chart per
 * metric, with device status (things) or cabinets (regions), all refreshed every 10 s by one
 * ticker whose stamp (`seq`) every call of the tick carries.
 */
export default function RealtimeScreen() {
  const { t } = useTranslation();
  const ctx = useMonitor();
  const { selection, node, categoryId } = ctx;
  const metrics = useResourceMetrics(selection, node, categoryId);
  const abilities = useChartAbilities();
  const [restarts, setRestarts] = useState(0);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const resetKey = selection
    ? `${selection.resourceType}:${selection.resourceId}:${categoryId ?? ''}:${restarts}`
    : null;
  const seq = useSeqTicker(resetKey, MONITOR_REFRESH_MS);
  const cabinets = useTickCabinets(
    selection?.resourceType === 'region' ? selection.resourceId : null,
    seq,
    categoryId,
  );
  const cabinetList = cabinets.data ?? NO_CABINETS;
  const cabinetsLoading = cabinets.isPending && !cabinets.data;

  return (
    <MonitorLayout ctx={ctx}>
      {!selection ? (
        <Card>
          <Empty description={ctx.tree.isPending ? t('monitoring.loading') : t('monitoring.noResource')} />
        </Card>
      ) : (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Card
            size="small"
            title={
              <Space>
                <span>{node?.name ?? `#${selection.resourceId}`}</span>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('monitoring.realtime.window', {
                    minutes: REALTIME_WINDOW_MINUTES,
                    seconds: MONITOR_REFRESH_MS / 1000,
                  })}
                </Typography.Text>
              </Space>
            }
            extra={
              <Space>
                {selection.resourceType === 'thing' && <CameraLink thingId={selection.resourceId} />}
                {selection.resourceType === 'thing' && (
                  <ThingEventsButton
                    thingId={selection.resourceId}
                    name={node?.name ?? `#${selection.resourceId}`}
                  />
                )}
                {abilities.configureMetrics && metrics.ref ? (
                  <Button icon={<SettingOutlined />} onClick={() => setSettingsOpen(true)}>
                    {t('charts.settings.open')}
                  </Button>
                ) : null}
              </Space>
            }
          />
          {/* Overview and charts first; a whole plant's cabinets follow as a compact grid. */}
          {selection.resourceType === 'thing' ? (
            <DeviceStatusPanel selection={selection} seq={seq} categoryId={null} />
          ) : (
            <CabinetOverview list={cabinetList} loading={cabinetsLoading} />
          )}
          {metrics.loading ? (
            <Skeleton active />
          ) : (
            <RealtimeCharts
              selection={selection}
              metrics={metrics.metrics}
              seq={seq}
              categoryId={categoryId}
              things={selectedThingIds(selection, node)}
            />
          )}
          {selection.resourceType === 'region' ? (
            <CabinetGrid list={cabinetList} loading={cabinetsLoading} />
          ) : null}
          {metrics.ref && (
            <MetricSettingsDialog
              open={settingsOpen}
              onClose={() => setSettingsOpen(false)}
              resource={metrics.ref}
              configs={metrics.configs}
              sources={metrics.sources}
              // Spec §4: after a successful change the view restarts its timers and reloads.
              onSaved={() => setRestarts((n) => n + 1)}
            />
          )}
        </Space>
      )}
    </MonitorLayout>
  );
}

/** The real-time charts ask for their alarms over whole steps of this. */
const ALARM_SPAN_STEP = 5 * 60_000;

function RealtimeCharts({
  selection,
  metrics,
  seq,
  categoryId,
  things,
}: {
  selection: Selection;
  metrics: ChartMetric[];
  seq: string | null;
  categoryId: number | null;
  /** The devices whose alarms the charts mark. */
  things: readonly number[];
}) {
  const { t } = useTranslation();
  const results = useRealtimeSeries(selection, metrics, seq, categoryId);
  const window = seq ? realtimeWindow(seq) : undefined;
  // Asked over the window widened to whole 5 minutes: the moving window would ask anew each tick.
  const alarms = useAlarmSpans(
    things,
    window ? Math.floor(window.start / ALARM_SPAN_STEP) * ALARM_SPAN_STEP : 0,
    window ? Math.ceil(window.end / ALARM_SPAN_STEP) * ALARM_SPAN_STEP : 0,
  );
  const totals = useTodayTotals(selection, metrics, seq, categoryId);
  if (!metrics.length) {
    return (
      <Card>
        <Empty description={t('monitoring.noMetrics')} />
      </Card>
    );
  }
  return (
    <Row gutter={[16, 16]}>
      {metrics.map((metric, i) => (
        <Col key={metric.identifier} xs={24} md={12}>
          <RealtimeMetricCard
            metric={metric}
            answer={results[i]?.data}
            today={totals[i]?.data}
            loading={results[i]?.isPending ?? true}
            window={window}
            alarms={alarms.data}
          />
        </Col>
      ))}
    </Row>
  );
}

function RealtimeMetricCard({
  metric,
  answer,
  today,
  loading,
  window,
  alarms,
}: {
  metric: ChartMetric;
  answer: QueryResult | undefined;
  /** Today's consumption (consumption metrics only). */
  today: QueryResult | undefined;
  loading: boolean;
  window: { start: number; end: number } | undefined;
  alarms: readonly AlarmSpan[] | undefined;
}) {
  const { t } = useTranslation();
  const consumption = isConsumption(metric);
  // A consumption's points are per minute: so is its name (the card's "today" is a figure of its own).
  const name = consumption ? perBucketName(t, metric.name, MINUTE_BUCKET) : metric.name;
  const series = useMemo(
    () =>
      buildSeries(answer?.result ?? [], {
        name,
        aggregator: metric.aggregator,
        color: metric.color,
        unit: metric.unit,
        totalName: t('charts.total'),
        counter: metric.cumulative,
      }),
    [answer, metric, name, t],
  );
  const drawn = useMemo(() => leaveOutRunning(series), [series]);
  const shown = useShownSeries(drawn.series);
  const main = series[0]?.points ?? [];
  const latest = [...main].reverse().find((p) => p.value !== null)?.value ?? null;
  const total = consumption ? summarize(today?.result ?? [], 'sum') : null;
  return (
    <ChartCard
      data-testid={`realtime-${metric.identifier}`}
      title={withUnit(name, metric.unit)}
      series={shown}
      timeZone={answer?.timeZone}
      extra={
        consumption ? (
          <Typography.Text data-testid="today">
            {todayName(t, metric.name)} <strong>{formatWithUnit(total, metric.unit)}</strong>
          </Typography.Text>
        ) : (
          <Typography.Text strong data-testid="latest">
            {formatWithUnit(latest, metric.unit)}
          </Typography.Text>
        )
      }
    >
      <LineChart
        series={shown}
        variant="card"
        loading={loading}
        window={window}
        incompleteLabel={t('charts.incomplete')}
        alarms={alarms}
      />
      {drawn.left && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="running-left-out">
          {t('charts.runningLeftOut')}
        </Typography.Text>
      )}
    </ChartCard>
  );
}
