import type { Cabinet } from '@kilowatch/contract';
import { Card, Col, Descriptions, Empty, Row, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatWithUnit, isStatusMetric } from '../../../components/charts/series.ts';
import { useTickCabinets } from '../api/monitoring.ts';
import { isOnline, keyValues } from '../lib/status.ts';
import { OnlineTag, RunStateTag } from './StatusTag.tsx';

/** The device cabinets of a region's things (GET /api/board/components/{id}?successor=true). */
export function CabinetGrid({
  regionId,
  seq,
  categoryId,
}: {
  regionId: number;
  seq: string | null;
  categoryId: number | null;
}) {
  const { t } = useTranslation();
  const cabinets = useTickCabinets(regionId, seq, categoryId);
  const list = cabinets.data ?? [];
  return (
    <Card size="small" title={t('monitoring.cabinets.title')} loading={cabinets.isPending && !cabinets.data}>
      {list.length ? (
        <Row gutter={[12, 12]}>
          {list.map((c) => (
            <Col key={c.thingId} xs={24} md={12} xxl={8}>
              <CabinetCard cabinet={c} />
            </Col>
          ))}
        </Row>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('monitoring.cabinets.empty')} />
      )}
    </Card>
  );
}

export function CabinetCard({ cabinet }: { cabinet: Cabinet }) {
  const { t } = useTranslation();
  const values = keyValues(cabinet);
  const attributes = cabinet.setting?.attributes ?? [];
  return (
    <Card
      size="small"
      type="inner"
      data-testid={`cabinet-${cabinet.thingId}`}
      title={
        <Space size={6}>
          <span>{cabinet.name}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {cabinet.identifier}
          </Typography.Text>
        </Space>
      }
      extra={<OnlineTag online={isOnline(cabinet.lastSeenAgo)} />}
    >
      {cabinet.description ? (
        <Typography.Paragraph type="secondary">{cabinet.description}</Typography.Paragraph>
      ) : null}
      {attributes.length ? (
        <Descriptions
          size="small"
          column={2}
          title={
            <Typography.Text style={{ fontSize: 12 }}>{t('monitoring.cabinets.attributes')}</Typography.Text>
          }
          items={attributes.map((a) => ({ key: a.identifier, label: a.name, children: a.value }))}
        />
      ) : null}
      {values.length ? (
        <Descriptions
          size="small"
          column={2}
          title={
            <Typography.Text style={{ fontSize: 12 }}>{t('monitoring.cabinets.latest')}</Typography.Text>
          }
          items={values.map((v) => ({
            key: v.identifier,
            label: v.name,
            children: isStatusMetric(v.name) ? (
              <RunStateTag value={v.value} />
            ) : (
              formatWithUnit(v.value, v.unit)
            ),
          }))}
        />
      ) : null}
    </Card>
  );
}
