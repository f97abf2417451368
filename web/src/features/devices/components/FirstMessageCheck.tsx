import { CheckCircleFilled, LoadingOutlined } from '@ant-design/icons';
import type { DeviceStatus } from '@kilowatch/contract';
import { Alert, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLatestValues } from '../../../api/realtime.ts';
import { formatPlantTime } from '../../../lib/plant-calendar.ts';

const newestOf = (statuses: readonly DeviceStatus[]): number | null =>
  statuses.reduce<number | null>(
    (max, s) => (s.ts !== null && (max === null || s.ts > max) ? s.ts : max),
    null,
  );

const describe = (s: DeviceStatus) => `${s.operation} = ${String(s.value)}${s.unit ? ` ${s.unit}` : ''}`;

/**
 * "Waiting for the first message… received ✓ (values)": polls the thing's latest values while
 * the dialog is open. What was there when it opened is the baseline; a newer value is the
 * message the person just sent.
 */
export function FirstMessageCheck({ thingId }: { thingId: number }) {
  const { t } = useTranslation();
  const latest = useLatestValues(thingId);
  // undefined: not read yet; null: the thing never sent anything.
  const [baseline, setBaseline] = useState<number | null | undefined>(undefined);
  const statuses = latest.data ?? [];
  const newest = newestOf(statuses);
  if (baseline === undefined && latest.data) setBaseline(newest);

  if (latest.isError) {
    return (
      <Alert type="error" showIcon title={t('devices.connect.checkFailed')} data-testid="first-message" />
    );
  }
  const received = baseline !== undefined && newest !== null && (baseline === null || newest > baseline);
  if (received) {
    const fresh = statuses.filter(
      (s) => s.ts !== null && s.value !== null && (baseline === null || s.ts > baseline),
    );
    return (
      <Alert
        type="success"
        showIcon
        icon={<CheckCircleFilled />}
        data-testid="first-message"
        data-state="received"
        title={t('devices.connect.received', { time: formatPlantTime(newest) })}
        description={
          <Space wrap size={[16, 4]}>
            {fresh.map((s) => (
              <Typography.Text key={s.operation} code>
                {describe(s)}
              </Typography.Text>
            ))}
          </Space>
        }
      />
    );
  }
  return (
    <Alert
      type="info"
      showIcon
      icon={<LoadingOutlined />}
      data-testid="first-message"
      data-state="waiting"
      title={baseline === undefined ? t('devices.connect.checking') : t('devices.connect.waiting')}
      description={
        baseline
          ? t('devices.connect.lastMessage', { time: formatPlantTime(baseline) })
          : t('devices.connect.waitingHint')
      }
    />
  );
}
