import { ReloadOutlined } from '@ant-design/icons';
import { type AlarmHealth, FLOOD_ALARMS } from '@kilowatch/contract';
import {
  Button,
  Card,
  Col,
  DatePicker,
  Empty,
  Result,
  Row,
  Space,
  Statistic,
  Table,
  type TableColumnsType,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAlarmHealth } from '../../../api/alarms.ts';
import { EChart } from '../../../components/charts/index.ts';
import { formatPlantTime as formatTime, usePlantCalendar } from '../../../lib/plant-calendar.ts';
import { useSearchPatch } from '../../../lib/search-patch.ts';
import { HISTORY_PATH } from '../abilities.ts';
import {
  HEALTH_MAX_DAYS,
  healthChartOption,
  healthRangeOf,
  hoursBetween,
  percent,
  rangeOfDays,
} from '../lib/health.ts';
import { BandTag, SeverityTag } from './tags.tsx';

type HealthAlarm = AlarmHealth['standing'][number];
type ChatteringAlarm = AlarmHealth['chattering'][number];
type BadActor = AlarmHealth['badActors'][number];
type Flood = AlarmHealth['floods'][number];

/** The KPI cards of a row are as tall as the tallest. */
const KPI = { height: '100%' };

const alarmLink = (id: number) => `${HISTORY_PATH}?id=${id}`;

/**
 * The alarm system's health (EEMUA 191) over a range of plant days: alarms per 10 minutes against
 * the flood line, floods, standing and chattering alarms and the top bad actors (docs/alarms.md).
 */
export function AlarmHealthTab() {
  const { t } = useTranslation();
  const calendar = usePlantCalendar();
  const [search, patchSearch] = useSearchPatch();
  const range = healthRangeOf(search, calendar, Date.now());
  const health = useAlarmHealth({ startTime: range.start, endTime: range.end });
  const data = health.data;
  const today = dayjs(calendar.dateOf(Date.now()));

  const pick = (values: [Dayjs | null, Dayjs | null] | null) => {
    const [from, to] = values ?? [];
    if (!from || !to) return;
    const days = [from, to].map(plantDayOf);
    const r = rangeOfDays(calendar, days[0]!, days[1]!);
    patchSearch({ from: r.from, to: r.to });
  };

  const option = useMemo(
    () =>
      data &&
      healthChartOption(
        data,
        {
          alarms: t('alarms.health.annunciations'),
          flood: t('alarms.health.floodLine', { count: FLOOD_ALARMS }),
        },
        (ms) => calendar.format(ms, 'MM-DD HH:mm'),
      ),
    [data, t, calendar],
  );

  const alarmColumns: TableColumnsType<HealthAlarm> = [
    {
      title: t('alarms.history.id'),
      dataIndex: 'id',
      width: 90,
      render: (id: number) => <Link to={alarmLink(id)}>{id}</Link>,
    },
    { title: t('alarms.history.rule'), dataIndex: 'ruleName' },
    { title: t('alarms.detail.thing'), dataIndex: 'thingName' },
    {
      title: t('alarms.history.severity'),
      dataIndex: 'severity',
      render: (s) => <SeverityTag severity={s} />,
    },
    { title: t('alarms.history.alarmAt'), dataIndex: 'alarmAt', render: formatTime },
  ];
  const standingColumns: TableColumnsType<HealthAlarm> = [
    ...alarmColumns,
    {
      title: t('alarms.health.standingFor'),
      key: 'hours',
      render: (_, a) =>
        t('alarms.health.hours', { n: hoursBetween(Date.parse(a.alarmAt), Date.parse(data!.standingAt)) }),
    },
  ];
  // A chattering alarm's annunciations in the range beside its raises since it opened.
  const chatteringColumns: TableColumnsType<ChatteringAlarm> = [
    ...(alarmColumns as TableColumnsType<ChatteringAlarm>),
    { title: t('alarms.health.annunciations'), dataIndex: 'annunciations' },
    { title: t('alarms.health.occurrences'), dataIndex: 'occurrences' },
  ];
  const floodColumns: TableColumnsType<Flood> = [
    { title: t('alarms.health.floodStart'), dataIndex: 'start', render: formatTime },
    { title: t('alarms.health.floodEnd'), dataIndex: 'end', render: formatTime },
    {
      title: t('alarms.health.floodMinutes'),
      key: 'minutes',
      render: (_, f) => Math.round((Date.parse(f.end) - Date.parse(f.start)) / 6_000) / 10,
    },
    { title: t('alarms.health.annunciations'), dataIndex: 'count' },
  ];
  const actorColumns: TableColumnsType<BadActor> = [
    { title: '#', key: 'rank', width: 48, render: (_, __, i) => i + 1 },
    {
      title: t('alarms.history.rule'),
      dataIndex: 'ruleName',
      render: (name: string, a) => (
        <Link
          to={`${HISTORY_PATH}?ruleId=${a.ruleId}&thingId=${a.thingId}&start=${range.start}&end=${range.end}`}
          data-testid="bad-actor-link"
        >
          {name}
        </Link>
      ),
    },
    { title: t('alarms.detail.thing'), dataIndex: 'thingName' },
    { title: t('alarms.health.annunciations'), dataIndex: 'count' },
    { title: t('alarms.health.distinctAlarms'), dataIndex: 'alarms' },
    { title: t('alarms.health.share'), dataIndex: 'share', render: percent },
  ];

  const table = <R extends object>(
    title: string,
    rows: readonly R[],
    columns: TableColumnsType<R>,
    rowKey: (r: R) => string | number,
    empty: string,
    testId: string,
    note?: string,
  ) => (
    <Card size="small" title={title} extra={note} data-testid={testId}>
      <Table<R>
        size="small"
        rowKey={rowKey}
        dataSource={rows as R[]}
        columns={columns}
        pagination={rows.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} /> }}
      />
    </Card>
  );

  const rangePicker = (
    <Space wrap>
      <DatePicker.RangePicker
        allowClear={false}
        value={[dayjs(range.from), dayjs(range.to)]}
        onChange={(v) => pick(v as [Dayjs | null, Dayjs | null] | null)}
        aria-label={t('alarms.health.range')}
        disabledDate={(d, info) => {
          const from = info.from;
          return from ? Math.abs(d.diff(from, 'day')) >= HEALTH_MAX_DAYS : false;
        }}
        presets={[
          { label: t('alarms.health.today'), value: [today, today] },
          { label: t('alarms.health.last7'), value: [today.subtract(6, 'day'), today] },
          { label: t('alarms.health.last30'), value: [today.subtract(29, 'day'), today] },
        ]}
        data-testid="health-range"
      />
      <Button
        icon={<ReloadOutlined />}
        aria-label={t('alarms.history.refresh')}
        onClick={() => health.refetch()}
        loading={health.isFetching}
      />
    </Space>
  );

  return (
    <Card title={t('alarms.health.title')} extra={rangePicker} data-testid="alarm-health">
      {health.isError && !data ? (
        <Result
          status="error"
          title={t('alarms.health.loadFailed')}
          subTitle={health.error.message}
          extra={<Button onClick={() => health.refetch()}>{t('common.retry')}</Button>}
        />
      ) : !data ? (
        <Card loading variant="borderless" />
      ) : (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <Row gutter={[16, 16]}>
            <Col xs={12} md={8} xl={4}>
              <Card size="small" style={KPI}>
                <Statistic title={t('alarms.health.total')} value={data.total} />
                <Typography.Text type="secondary" data-testid="health-distinct">
                  {t('alarms.health.distinct', { count: data.alarms })}
                </Typography.Text>
                <br />
                <Typography.Text type="secondary">
                  {t('alarms.health.suppressed', { count: data.suppressed })}
                </Typography.Text>
              </Card>
            </Col>
            <Col xs={12} md={8} xl={4}>
              <Card size="small" style={KPI} data-testid="health-average">
                <Statistic title={t('alarms.health.average')} value={data.average} precision={2} />
                <BandTag band={data.band} />
              </Card>
            </Col>
            <Col xs={12} md={8} xl={4}>
              <Card size="small" style={KPI}>
                <Statistic title={t('alarms.health.max')} value={data.max} />
                <Typography.Text type="secondary">{t('alarms.health.perPeriod')}</Typography.Text>
              </Card>
            </Col>
            <Col xs={12} md={8} xl={4}>
              <Card size="small" style={KPI}>
                <Statistic title={t('alarms.health.floods')} value={data.floods.length} />
                <Typography.Text type="secondary">
                  {t('alarms.health.floodPercent', { percent: data.floodPeriodsPercent })}
                </Typography.Text>
              </Card>
            </Col>
            <Col xs={12} md={8} xl={4}>
              <Card size="small" style={KPI}>
                <Statistic title={t('alarms.health.standing')} value={data.standingCount} />
                <Typography.Text type="secondary">{t('alarms.health.standingHint')}</Typography.Text>
              </Card>
            </Col>
            <Col xs={12} md={8} xl={4}>
              <Card size="small" style={KPI}>
                <Statistic title={t('alarms.health.chattering')} value={data.chatteringCount} />
                <Typography.Text type="secondary" data-testid="health-chattering-annunciations">
                  {t('alarms.health.chatteringAnnunciations', { count: data.chatteringAnnunciations })}
                </Typography.Text>
                <br />
                <Typography.Text type="secondary">{t('alarms.health.chatteringHint')}</Typography.Text>
              </Card>
            </Col>
          </Row>
          <Card size="small" title={t('alarms.health.chart')}>
            {data.total === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alarms.health.empty')} />
            ) : (
              option && <EChart option={option} height={280} data-testid="health-chart" />
            )}
          </Card>
          <Row gutter={[16, 16]}>
            <Col xs={24}>
              {table(
                t('alarms.health.badActors'),
                data.badActors,
                actorColumns,
                (a) => `${a.ruleId}:${a.thingId}`,
                t('alarms.health.noBadActors'),
                'health-bad-actors',
              )}
            </Col>
            <Col xs={24}>
              {table(
                t('alarms.health.standing'),
                data.standing,
                standingColumns,
                (a) => a.id,
                t('alarms.health.noStanding'),
                'health-standing',
                t('alarms.health.standingAt', { time: formatTime(data.standingAt) }),
              )}
            </Col>
            <Col xs={24} xl={12}>
              {table(
                t('alarms.health.floods'),
                data.floods,
                floodColumns,
                (f) => f.start,
                t('alarms.health.noFloods'),
                'health-floods',
              )}
            </Col>
            <Col xs={24} xl={12}>
              {table(
                t('alarms.health.chattering'),
                data.chattering,
                chatteringColumns,
                (a) => a.id,
                t('alarms.health.noChattering'),
                'health-chattering',
              )}
            </Col>
          </Row>
        </Space>
      )}
    </Card>
  );
}

/** A picker's date as the plant's day number (the picker shows plant dates). */
const plantDayOf = (d: Dayjs): number => Math.floor(Date.UTC(d.year(), d.month(), d.date()) / 86_400_000);
