import { SettingOutlined } from '@ant-design/icons';
import { Button, Card, Col, Empty, Row, Skeleton, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useTargetAlarmSpans } from '../../../api/alarms.ts';
import type { ResourceRef } from '../../../api/keys.ts';
import {
  BarChart,
  buildSeries,
  ChartCard,
  type ChartMetric,
  chartedConfigs,
  configMetric,
  formatWithUnit,
  LineChart,
  lineSources,
  MetricSettingsDialog,
  perBucketName,
  summarize,
  todayName,
  useChartAbilities,
  useShownSeries,
  withUnit,
} from '../../../components/charts/index.ts';
import { usePlantCalendar } from '../../../lib/plant-calendar.ts';
import { useAllSources, useHomeConfigs, usePeriodData, useRootRegion } from '../hooks/home.ts';
import { type ChartResource, chartKind, periodQuery } from '../lib/period-query.ts';

const HOUR_BUCKET = { groupByTime: 'hour', groupByInterval: 1 } as const;

/**
 * /home: the plant overview. Each enabled metric config of the root region is a card with
 * today's chart by hour (refreshed every 30 s); a card opens /home/chartdetail.
 */
export default function HomeScreen() {
  const { t } = useTranslation();
  const calendar = usePlantCalendar();
  const navigate = useNavigate();
  const abilities = useChartAbilities();
  const { root, isPending: rootPending } = useRootRegion();
  const { configs, isPending: configsPending } = useHomeConfigs(root?.id ?? null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const metrics = useMemo(() => chartedConfigs(configs).map(configMetric), [configs]);
  const noConfigs = root !== null && !configsPending && metrics.length === 0;
  const sources = useAllSources(noConfigs || settingsOpen);
  const resource: ChartResource | null = root ? { resourceType: 'region', resourceId: root.id } : null;
  const ref: ResourceRef | null = resource ? { ...resource, categoryId: null } : null;

  if (rootPending || configsPending) return <Skeleton active paragraph={{ rows: 10 }} />;

  if (!root) {
    return (
      <Card>
        <Empty description={t('home.noRegions')}>
          <Button type="primary" onClick={() => navigate('/region')}>
            {t('home.toRegions')}
          </Button>
        </Empty>
      </Card>
    );
  }

  const settingsButton = abilities.configureMetrics ? (
    <Button icon={<SettingOutlined />} onClick={() => setSettingsOpen(true)}>
      {noConfigs ? t('home.pickMetrics') : t('charts.settings.open')}
    </Button>
  ) : null;

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card
        size="small"
        title={
          <Space>
            <span>{root.name}</span>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('home.today', { date: calendar.dateOf(Date.now()) })}
            </Typography.Text>
          </Space>
        }
        extra={noConfigs ? null : settingsButton}
      />
      {noConfigs ? (
        <Card>
          <Empty
            description={
              <Space orientation="vertical">
                <span>{t('home.noConfigs')}</span>
                <Typography.Text type="secondary" data-testid="available-metrics">
                  {lineSources(sources).length
                    ? t('home.available', {
                        names: lineSources(sources)
                          .map((s) => s.name)
                          .join('、'),
                      })
                    : t('home.noSources')}
                </Typography.Text>
              </Space>
            }
          >
            {settingsButton}
          </Empty>
        </Card>
      ) : (
        <Row gutter={[16, 16]}>
          {metrics.map((metric) => (
            <Col key={metric.identifier} xs={24} md={12} xxl={8}>
              <HomeChartCard
                resource={resource!}
                metric={metric}
                onOpen={() =>
                  navigate(
                    `/home/chartdetail?resourceType=region&resourceId=${root.id}&metric=${encodeURIComponent(metric.identifier)}`,
                  )
                }
              />
            </Col>
          ))}
        </Row>
      )}
      {ref && (
        <MetricSettingsDialog
          open={settingsOpen}
          onClose={() => setSettingsOpen(false)}
          resource={ref}
          configs={configs}
          sources={sources}
        />
      )}
    </Space>
  );
}

function HomeChartCard({
  resource,
  metric,
  onOpen,
}: {
  resource: ChartResource;
  metric: ChartMetric;
  onOpen(): void;
}) {
  const { t } = useTranslation();
  const calendar = usePlantCalendar();
  // The plant's day rolls over at its midnight: the key (and so the query) follows on the next render.
  const today = calendar.startOfDay(Date.now());
  const query = useMemo(
    () => periodQuery(resource, metric, 'day', today, calendar),
    [resource, metric, today, calendar],
  );
  const data = usePeriodData(query);
  // The alarms of the plant's devices today, marked on the card's hours.
  const alarms = useTargetAlarmSpans(resource, today, calendar.periodRange('day', today).end);
  const kind = chartKind(metric);
  const name = kind === 'bar' ? perBucketName(t, metric.name, HOUR_BUCKET) : metric.name;
  const series = useMemo(
    () =>
      buildSeries(data.data?.result ?? [], {
        name,
        aggregator: metric.aggregator,
        color: metric.color,
        unit: metric.unit || data.data?.unit,
        totalName: t('charts.total'),
      }),
    [data.data, metric, name, t],
  );
  const Chart = kind === 'bar' ? BarChart : LineChart;
  const total = kind === 'bar' ? summarize(series[0]?.points ?? [], metric.aggregator) : null;
  const shown = useShownSeries(series);
  return (
    <ChartCard
      data-testid={`home-card-${metric.identifier}`}
      // The bars are per hour; the figure beside the title is the plant's day so far.
      title={withUnit(name, metric.unit)}
      series={shown}
      timeZone={data.data?.timeZone}
      onOpen={onOpen}
      extra={
        total !== null ? (
          <Typography.Text data-testid="total">
            {todayName(t, metric.name)} <strong>{formatWithUnit(total, metric.unit)}</strong>
          </Typography.Text>
        ) : null
      }
    >
      <Chart
        series={shown}
        variant="card"
        period={{ period: 'day', time: today }}
        loading={data.isPending}
        incompleteLabel={t('charts.incomplete')}
        alarms={alarms.data}
      />
    </ChartCard>
  );
}
