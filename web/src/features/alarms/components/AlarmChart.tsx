import type { AlarmDetail } from '@kilowatch/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Result, Spin } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { keys } from '../../../api/keys.ts';
import { fetchMetricData } from '../../../api/telemetry.ts';
import { EChart } from '../../../components/charts/index.ts';
import { usePlantCalendar } from '../../../lib/plant-calendar.ts';
import { alarmChartOption, alarmChartRange, limitsOf } from '../lib/alarm-chart.ts';

/** Points drawn: the server downsamples the range to about this many. */
const CHART_POINTS = 600;

/**
 * The alarm's metric around it (issue 11): an hour before the raise to an hour after the return (or
 * now), with the rule's limits and the alarm's span, through the same telemetry query as the charts.
 */
export function AlarmChart({ alarm }: { alarm: AlarmDetail }) {
  const { t } = useTranslation();
  const calendar = usePlantCalendar();
  // Fixed when the detail opens: an active alarm's chart does not creep on every render.
  const [now] = useState(() => Date.now());
  const range = alarmChartRange(alarm, now);
  const query = {
    resourceType: 'thing' as const,
    resourceId: alarm.thingId,
    metricIdentifier: alarm.ability,
    startTime: range.start,
    endTime: range.end,
    maxPoints: CHART_POINTS,
  };
  const data = useQuery({
    queryKey: keys.telemetry.data(query),
    queryFn: ({ signal }) => fetchMetricData(query, { signal }),
    enabled: alarm.ability !== '',
  });
  const points = useMemo(
    () =>
      (data.data?.result ?? [])
        .filter((p) => p.value !== null)
        .map((p) => [p.key, p.value as number] as [number, number]),
    [data.data],
  );
  const option = useMemo(
    () =>
      alarmChartOption(
        points,
        {
          limits: limitsOf(alarm.condition),
          span: [Date.parse(alarm.alarmAt), range.spanEnd],
          window: [range.start, range.end],
        },
        {
          metric: data.data?.unit ? `${alarm.ability} (${data.data.unit})` : alarm.ability,
          alarm: t('alarms.detail.chartAlarm'),
          limit: t('alarms.detail.chartLimit'),
        },
        calendar,
      ),
    [points, alarm, range.start, range.end, range.spanEnd, data.data?.unit, t, calendar],
  );

  if (data.isPending && alarm.ability !== '')
    return <Spin style={{ display: 'block', margin: '24px auto' }} />;
  if (data.isError)
    return (
      <Result
        status="warning"
        title={t('alarms.detail.chartFailed')}
        subTitle={data.error.message}
        extra={<Button onClick={() => data.refetch()}>{t('common.retry')}</Button>}
      />
    );
  if (points.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alarms.detail.chartEmpty')} />;
  return <EChart option={option} height={220} data-testid="alarm-chart" />;
}
