import type { DeviceStatus } from '@kilowatch/contract';
import { Card, Col, Empty, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { plantTimeZone } from '../../../api/telemetry.ts';
import { ExportMenu } from '../../../components/charts/export/ExportMenu.tsx';
import type { Sheet } from '../../../components/charts/export/sheet.ts';
import { formatReading, isStatusMetric } from '../../../components/charts/series.ts';
import { useDeviceStatus } from '../hooks/monitoring.ts';
import type { Selection } from '../lib/tree.ts';
import { RunStateTag } from './StatusTag.tsx';

/** Latest value of each ability of the thing, refreshed every tick (GET /api/query/realtime). */
export function DeviceStatusPanel({
  selection,
  seq,
  categoryId,
}: {
  selection: Selection;
  seq: string | null;
  categoryId: number | null;
}) {
  const { t } = useTranslation();
  const status = useDeviceStatus(selection, seq, categoryId);
  const items = status.data ?? [];
  const title = t('monitoring.exportColumns.status');
  const sheet = (): Sheet => ({
    title,
    columns: [
      { header: t('monitoring.exportColumns.metric'), kind: 'text' },
      { header: t('monitoring.exportColumns.value'), kind: 'number' },
      { header: t('monitoring.exportColumns.unit'), kind: 'text' },
      { header: `${t('monitoring.exportColumns.time')} (${plantTimeZone()})`, kind: 'time' },
    ],
    rows: items.map((item) => [item.name, item.value, item.unit || null, item.ts]),
  });
  return (
    <Card
      size="small"
      title={t('monitoring.status.title')}
      loading={status.isPending && !status.data}
      extra={<ExportMenu source={{ title, sheet }} disabled={!items.length} />}
    >
      {items.length ? (
        <Row gutter={[12, 12]}>
          {items.map((item) => (
            <Col key={`${item.thingId}:${item.operation}`} xs={12} md={8} xl={6}>
              <StatusItem item={item} />
            </Col>
          ))}
        </Row>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('monitoring.status.empty')} />
      )}
    </Card>
  );
}

function StatusItem({ item }: { item: DeviceStatus }) {
  return (
    <div data-testid={`status-${item.operation}`}>
      <Typography.Text type="secondary">{item.name}</Typography.Text>
      <div style={{ fontSize: 18, fontWeight: 500 }}>
        {isStatusMetric(item.name) ? (
          <RunStateTag value={item.value} />
        ) : (
          <>
            {formatReading(item.value, item.unit)}
            {item.unit && item.value !== null ? (
              <Typography.Text type="secondary" style={{ fontSize: 12, marginLeft: 4 }}>
                {item.unit}
              </Typography.Text>
            ) : null}
          </>
        )}
      </div>
    </div>
  );
}
